// Malformed: an op linalg does not have.
func.func @f(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %r = linalg.frobnicate %x : tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}
