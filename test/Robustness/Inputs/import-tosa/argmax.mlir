// An argmax.
func.func @f(%x: tensor<8x16xf32>) -> tensor<8xi32> {
  %r = tosa.argmax %x {axis = 1 : i32} : (tensor<8x16xf32>) -> tensor<8xi32>
  return %r : tensor<8xi32>
}
