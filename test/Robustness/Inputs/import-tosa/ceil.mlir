// ceil.
func.func @f(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %r = tosa.ceil %x : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}
