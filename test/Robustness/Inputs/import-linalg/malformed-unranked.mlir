// Malformed: linalg on an unranked tensor.
func.func @f(%x: tensor<*xf32>, %y: tensor<*xf32>) -> tensor<*xf32> {
  %r = linalg.exp ins(%x : tensor<*xf32>) outs(%y : tensor<*xf32>) -> tensor<*xf32>
  return %r : tensor<*xf32>
}
