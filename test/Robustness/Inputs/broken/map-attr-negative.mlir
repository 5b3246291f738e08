// #mirage_block.map entries are >= -1
func.func @f() attributes {m = #mirage_block.map<y = -7>} {
  return
}