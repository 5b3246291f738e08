// sub of rank 2 and rank 1 (no implicit rank broadcasting)
func.func @f(%a: tensor<8x64xf16>, %b: tensor<64xf16>) {
  %0 = mirage_kernel.sub %a, %b : tensor<8x64xf16>, tensor<64xf16> -> tensor<8x64xf16>
  return
}
