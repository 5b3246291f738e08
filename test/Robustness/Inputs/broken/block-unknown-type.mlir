// mirage_block has no 'rtensor' type
func.func @f(%t: !mirage_block.rtensor<16x16xf16>) {
  return
}