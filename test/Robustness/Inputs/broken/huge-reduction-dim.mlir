// reduction dim 2^63-1
func.func @f(%a: tensor<8x64xf16>) {
  %0 = mirage_kernel.reduction %a dim 9223372036854775807 : tensor<8x64xf16> -> tensor<8x1xf16>
  return
}
