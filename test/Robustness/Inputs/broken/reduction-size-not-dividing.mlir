// reduction size 48 does not divide 64
func.func @f(%a: tensor<8x64xf16>) {
  %0 = mirage_kernel.reduction %a dim 1 size 48 : tensor<8x64xf16> -> tensor<8x48xf16>
  return
}
