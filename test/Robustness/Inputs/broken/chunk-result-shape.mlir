// second chunk has the wrong shape
func.func @f(%a: tensor<8x64xf16>) {
  %0:2 = mirage_kernel.chunk %a dim 1 parts 2 : tensor<8x64xf16> -> tensor<8x32xf16>, tensor<4x64xf16>
  return
}
