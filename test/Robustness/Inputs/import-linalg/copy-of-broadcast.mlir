// A copy of a broadcast.
func.func @f(%x: tensor<16xf32>) -> tensor<8x16xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %b = linalg.broadcast ins(%x : tensor<16xf32>) outs(%e : tensor<8x16xf32>) dimensions = [0]
  %e2 = tensor.empty() : tensor<8x16xf32>
  %r = linalg.copy ins(%b : tensor<8x16xf32>) outs(%e2 : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}
