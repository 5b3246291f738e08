// matmul k dims differ (64 vs 32)
func.func @f(%a: tensor<8x64xf16>, %b: tensor<32x16xf16>) {
  %0 = mirage_kernel.matmul %a, %b : tensor<8x64xf16>, tensor<32x16xf16> -> tensor<8x16xf16>
  return
}
