// generic exp whose result type differs from its operand
func.func @f(%a: tensor<8x64xf16>) {
  %0 = "mirage_kernel.exp"(%a) : (tensor<8x64xf16>) -> tensor<8x32xf16>
  return
}
