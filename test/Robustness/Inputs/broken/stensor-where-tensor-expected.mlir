// kernel exp applied to a tile
func.func @f(%t: !mirage_block.stensor<16x16xf16>) {
  %0 = mirage_kernel.exp %t : !mirage_block.stensor<16x16xf16>
  return
}