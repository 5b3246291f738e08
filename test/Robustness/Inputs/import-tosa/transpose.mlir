// A transpose.
func.func @f(%x: tensor<8x16xf32>) -> tensor<16x8xf32> {
  %r = tosa.transpose %x {perms = array<i32: 1, 0>} : (tensor<8x16xf32>) -> tensor<16x8xf32>
  return %r : tensor<16x8xf32>
}
