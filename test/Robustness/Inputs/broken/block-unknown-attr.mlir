// mirage_block has no 'bogus' attribute
func.func @f() attributes {a = #mirage_block.bogus<x = 1>} {
  return
}