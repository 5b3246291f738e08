// Malformed: a reduction axis out of range.
func.func @f(%x: tensor<8x16xf32>) -> tensor<8x1xf32> {
  %r = tosa.reduce_sum %x {axis = 3 : i32} : (tensor<8x16xf32>) -> tensor<8x1xf32>
  return %r : tensor<8x1xf32>
}
