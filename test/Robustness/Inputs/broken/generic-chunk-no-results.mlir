// generic chunk with zero results
func.func @f(%a: tensor<8x64xf16>) {
  "mirage_kernel.chunk"(%a) <{dim = 1 : i64, parts = 2 : i64}> : (tensor<8x64xf16>) -> ()
  return
}
