// A gather.
func.func @f(%x: tensor<1x16x8xf32>, %i: tensor<1x4xi32>) -> tensor<1x4x8xf32> {
  %r = tosa.gather %x, %i : (tensor<1x16x8xf32>, tensor<1x4xi32>) -> tensor<1x4x8xf32>
  return %r : tensor<1x4x8xf32>
}
