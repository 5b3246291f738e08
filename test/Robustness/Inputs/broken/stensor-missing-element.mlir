// tile type without an element type
func.func @f(%t: !mirage_block.stensor<16x16>) {
  return
}