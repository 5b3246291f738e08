// pow 8x1 with 1x64 broadcasts to 8x64, result says 8x1
func.func @f(%a: tensor<8x1xf16>, %b: tensor<1x64xf16>) {
  %0 = mirage_kernel.pow %a, %b : tensor<8x1xf16>, tensor<1x64xf16> -> tensor<8x1xf16>
  return
}
