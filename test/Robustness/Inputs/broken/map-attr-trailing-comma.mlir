// #mirage_block.map with a trailing comma
func.func @f() attributes {m = #mirage_block.map<x = 1,>} {
  return
}