// div broadcast result should be 8x64, not 8x1
func.func @f(%a: tensor<8x64xf16>, %b: tensor<8x1xf16>) {
  %0 = mirage_kernel.div %a, %b : tensor<8x64xf16>, tensor<8x1xf16> -> tensor<8x1xf16>
  return
}
