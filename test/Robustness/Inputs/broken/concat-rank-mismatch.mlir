// concat of rank 2 and rank 3
func.func @f(%a: tensor<8x64xf16>, %b: tensor<1x8x64xf16>) {
  %0 = mirage_kernel.concat %a, %b dim 0 : tensor<8x64xf16>, tensor<1x8x64xf16> -> tensor<16x64xf16>
  return
}
