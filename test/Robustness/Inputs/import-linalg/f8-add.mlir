// f8 elements.
func.func @f(%x: tensor<8x16xf8E4M3FN>, %y: tensor<8x16xf8E4M3FN>) -> tensor<8x16xf8E4M3FN> {
  %e = tensor.empty() : tensor<8x16xf8E4M3FN>
  %r = linalg.add ins(%x, %y : tensor<8x16xf8E4M3FN>, tensor<8x16xf8E4M3FN>) outs(%e : tensor<8x16xf8E4M3FN>) -> tensor<8x16xf8E4M3FN>
  return %r : tensor<8x16xf8E4M3FN>
}
