// Malformed: operand shapes that do not broadcast.
func.func @f(%x: tensor<8x16xf32>, %y: tensor<4x16xf32>) -> tensor<8x16xf32> {
  %r = tosa.add %x, %y : (tensor<8x16xf32>, tensor<4x16xf32>) -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}
