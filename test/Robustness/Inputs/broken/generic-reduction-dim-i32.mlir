// generic reduction whose dim is an i32
func.func @f(%a: tensor<8x64xf16>) {
  %0 = "mirage_kernel.reduction"(%a) <{dim = 1 : i32}> : (tensor<8x64xf16>) -> tensor<8x1xf16>
  return
}
