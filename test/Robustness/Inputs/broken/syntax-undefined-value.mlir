// use of an SSA value that is never defined
func.func @f(%x: tensor<8x64xf16>) -> tensor<8x64xf16> {
  %0 = mirage_kernel.exp %nope : tensor<8x64xf16>
  return %0 : tensor<8x64xf16>
}