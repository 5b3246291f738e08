// mirage_block.exp directly in a func
func.func @f(%t: !mirage_block.stensor<16x16xf16>) -> !mirage_block.stensor<16x16xf16> {
  %0 = mirage_block.exp %t : !mirage_block.stensor<16x16xf16>
  return %0 : !mirage_block.stensor<16x16xf16>
}