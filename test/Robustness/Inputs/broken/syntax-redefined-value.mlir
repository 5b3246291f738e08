// an SSA name defined twice
func.func @f(%x: tensor<8x64xf16>) -> tensor<8x64xf16> {
  %0 = mirage_kernel.exp %x : tensor<8x64xf16>
  %0 = mirage_kernel.neg %x : tensor<8x64xf16>
  return %0 : tensor<8x64xf16>
}