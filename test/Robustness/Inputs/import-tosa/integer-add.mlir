// Integer elements.
func.func @f(%x: tensor<8x16xi32>, %y: tensor<8x16xi32>) -> tensor<8x16xi32> {
  %r = tosa.add %x, %y : (tensor<8x16xi32>, tensor<8x16xi32>) -> tensor<8x16xi32>
  return %r : tensor<8x16xi32>
}
