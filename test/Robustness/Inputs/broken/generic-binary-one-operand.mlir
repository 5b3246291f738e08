// generic add with one operand
func.func @f(%a: tensor<8x64xf16>) {
  %0 = "mirage_kernel.add"(%a) : (tensor<8x64xf16>) -> tensor<8x64xf16>
  return
}
