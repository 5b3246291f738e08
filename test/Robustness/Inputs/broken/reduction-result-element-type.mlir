// reduction changes the element type
func.func @f(%a: tensor<8x64xf16>) {
  %0 = mirage_kernel.reduction %a dim 1 : tensor<8x64xf16> -> tensor<8x1xf32>
  return
}
