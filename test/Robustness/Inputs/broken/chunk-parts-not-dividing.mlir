// 3 parts do not divide 64
func.func @f(%a: tensor<8x64xf16>) {
  %0:3 = mirage_kernel.chunk %a dim 1 parts 3 : tensor<8x64xf16> -> tensor<8x21xf16>, tensor<8x21xf16>, tensor<8x21xf16>
  return
}
