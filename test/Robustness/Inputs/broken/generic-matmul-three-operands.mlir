// generic matmul with three operands
func.func @f(%a: tensor<8x8xf16>) {
  %0 = "mirage_kernel.matmul"(%a, %a, %a) : (tensor<8x8xf16>, tensor<8x8xf16>, tensor<8x8xf16>) -> tensor<8x8xf16>
  return
}
