// reduction dim 2 of a rank-2 tensor
func.func @f(%a: tensor<8x64xf16>) {
  %0 = mirage_kernel.reduction %a dim 2 : tensor<8x64xf16> -> tensor<8x64xf16>
  return
}
