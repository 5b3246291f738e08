// Integer elements.
func.func @f(%x: tensor<8x16xi32>, %y: tensor<8x16xi32>) -> tensor<8x16xi32> {
  %e = tensor.empty() : tensor<8x16xi32>
  %r = linalg.add ins(%x, %y : tensor<8x16xi32>, tensor<8x16xi32>) outs(%e : tensor<8x16xi32>) -> tensor<8x16xi32>
  return %r : tensor<8x16xi32>
}
