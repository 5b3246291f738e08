// An integer sum.
func.func @f(%x: tensor<8x16xi32>) -> tensor<8x1xi32> {
  %r = tosa.reduce_sum %x {axis = 1 : i32} : (tensor<8x16xi32>) -> tensor<8x1xi32>
  return %r : tensor<8x1xi32>
}
