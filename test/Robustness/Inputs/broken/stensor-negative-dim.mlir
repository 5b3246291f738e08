// negative tile dimension
func.func @f(%t: !mirage_block.stensor<-4x16xf16>) {
  return
}