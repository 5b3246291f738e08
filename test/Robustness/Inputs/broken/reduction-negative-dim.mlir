// reduction dim -1
func.func @f(%a: tensor<8x64xf16>) {
  %0 = mirage_kernel.reduction %a dim -1 : tensor<8x64xf16> -> tensor<8x1xf16>
  return
}
