// #mirage_block.map key must be an axis name
func.func @f() attributes {m = #mirage_block.map<0 = 1>} {
  return
}