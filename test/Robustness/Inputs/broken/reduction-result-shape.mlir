// reduction to size 16 gives 8x16, not 8x1
func.func @f(%a: tensor<8x64xf16>) {
  %0 = mirage_kernel.reduction %a dim 1 size 16 : tensor<8x64xf16> -> tensor<8x1xf16>
  return
}
