// chunk dim 5 of a rank-2 tensor
func.func @f(%a: tensor<8x64xf16>) {
  %0:2 = mirage_kernel.chunk %a dim 5 parts 2 : tensor<8x64xf16> -> tensor<8x32xf16>, tensor<8x32xf16>
  return
}
