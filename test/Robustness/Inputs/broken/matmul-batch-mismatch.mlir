// matmul batch dims differ (2 vs 3)
func.func @f(%a: tensor<2x8x64xf16>, %b: tensor<3x64x16xf16>) {
  %0 = mirage_kernel.matmul %a, %b : tensor<2x8x64xf16>, tensor<3x64x16xf16> -> tensor<2x8x16xf16>
  return
}
