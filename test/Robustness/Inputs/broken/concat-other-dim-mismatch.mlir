// concat along dim 1 but dim 0 differs (8 vs 4)
func.func @f(%a: tensor<8x64xf16>, %b: tensor<4x64xf16>) {
  %0 = mirage_kernel.concat %a, %b dim 1 : tensor<8x64xf16>, tensor<4x64xf16> -> tensor<8x128xf16>
  return
}
