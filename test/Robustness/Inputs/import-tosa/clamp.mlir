// A clamp.
func.func @f(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %r = tosa.clamp %x {min_val = -1.0 : f32, max_val = 1.0 : f32} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}
