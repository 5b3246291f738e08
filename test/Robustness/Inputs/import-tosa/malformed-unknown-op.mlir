// Malformed: an op TOSA does not have.
func.func @f(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %r = tosa.frobnicate %x : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}
