// A max reduction.
func.func @f(%x: tensor<8x16xf32>) -> tensor<8x1xf32> {
  %r = tosa.reduce_max %x {axis = 1 : i32} : (tensor<8x16xf32>) -> tensor<8x1xf32>
  return %r : tensor<8x1xf32>
}
