// matmul needs rank >= 2
func.func @f(%a: tensor<64xf16>, %b: tensor<64xf16>) {
  %0 = mirage_kernel.matmul %a, %b : tensor<64xf16>, tensor<64xf16> -> tensor<1xf16>
  return
}
