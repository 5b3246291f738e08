// reduction size 0
func.func @f(%a: tensor<8x64xf16>) {
  %0 = mirage_kernel.reduction %a dim 1 size 0 : tensor<8x64xf16> -> tensor<8x0xf16>
  return
}
