// f64 elements.
func.func @f(%x: tensor<8x16xf64>) -> tensor<8x16xf64> {
  %e = tensor.empty() : tensor<8x16xf64>
  %r = linalg.exp ins(%x : tensor<8x16xf64>) outs(%e : tensor<8x16xf64>) -> tensor<8x16xf64>
  return %r : tensor<8x16xf64>
}
