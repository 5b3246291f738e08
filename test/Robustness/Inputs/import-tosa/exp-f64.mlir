// f64 elements, which TOSA does not have.
func.func @f(%x: tensor<8x16xf64>) -> tensor<8x16xf64> {
  %r = tosa.exp %x : (tensor<8x16xf64>) -> tensor<8x16xf64>
  return %r : tensor<8x16xf64>
}
