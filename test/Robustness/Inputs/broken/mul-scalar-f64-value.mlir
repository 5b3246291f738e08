// generic mul_scalar whose value is an f64 attribute
func.func @f(%a: tensor<8x64xf16>) {
  %0 = "mirage_kernel.mul_scalar"(%a) <{value = 2.0 : f64}> : (tensor<8x64xf16>) -> tensor<8x64xf16>
  return
}
