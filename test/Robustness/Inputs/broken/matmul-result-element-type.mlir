// matmul of f16 may give f16 or f32, not bf16
func.func @f(%a: tensor<8x64xf16>, %b: tensor<64x16xf16>) {
  %0 = mirage_kernel.matmul %a, %b : tensor<8x64xf16>, tensor<64x16xf16> -> tensor<8x16xbf16>
  return
}
