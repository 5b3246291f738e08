// tile whose element type is itself a tensor
func.func @f(%t: !mirage_block.stensor<16x16xtensor<2xf32>>) {
  return
}