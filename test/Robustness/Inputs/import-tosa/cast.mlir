// A cast from f16 to f32.
func.func @f(%x: tensor<8x16xf16>) -> tensor<8x16xf32> {
  %r = tosa.cast %x : (tensor<8x16xf16>) -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}
