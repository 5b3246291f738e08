// generic mirage_block.yield at module level
"mirage_block.yield"() : () -> ()
