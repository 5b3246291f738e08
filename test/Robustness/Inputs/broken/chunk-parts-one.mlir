// chunk needs at least 2 parts
func.func @f(%a: tensor<8x64xf16>) {
  %0 = mirage_kernel.chunk %a dim 1 parts 1 : tensor<8x64xf16> -> tensor<8x64xf16>
  return
}
