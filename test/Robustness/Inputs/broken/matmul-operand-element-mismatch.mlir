// matmul of f16 by bf16
func.func @f(%a: tensor<8x64xf16>, %b: tensor<64x16xbf16>) {
  %0 = mirage_kernel.matmul %a, %b : tensor<8x64xf16>, tensor<64x16xbf16> -> tensor<8x16xf32>
  return
}
