// tile element type i32
func.func @f(%t: !mirage_block.stensor<16x16xi32>) {
  return
}