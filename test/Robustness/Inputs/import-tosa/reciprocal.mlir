// A reciprocal on its own.
func.func @f(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %r = tosa.reciprocal %x : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}
