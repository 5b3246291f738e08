// A comparison.
func.func @f(%x: tensor<8x16xf32>, %y: tensor<8x16xf32>) -> tensor<8x16xi1> {
  %r = tosa.greater %x, %y : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xi1>
  return %r : tensor<8x16xi1>
}
