// concat result should be 8x96
func.func @f(%a: tensor<8x64xf16>, %b: tensor<8x32xf16>) {
  %0 = mirage_kernel.concat %a, %b dim 1 : tensor<8x64xf16>, tensor<8x32xf16> -> tensor<8x64xf16>
  return
}
