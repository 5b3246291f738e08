// generic reduction with size -64
func.func @f(%a: tensor<8x64xf16>) {
  %0 = "mirage_kernel.reduction"(%a) <{dim = 1 : i64, size = -64 : i64}> : (tensor<8x64xf16>) -> tensor<8x1xf16>
  return
}
