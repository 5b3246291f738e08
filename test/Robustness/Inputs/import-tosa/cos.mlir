// cos.
func.func @f(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %r = tosa.cos %x : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}
