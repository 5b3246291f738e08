// matmul result should be 8x16
func.func @f(%a: tensor<8x64xf16>, %b: tensor<64x16xf16>) {
  %0 = mirage_kernel.matmul %a, %b : tensor<8x64xf16>, tensor<64x16xf16> -> tensor<16x8xf16>
  return
}
