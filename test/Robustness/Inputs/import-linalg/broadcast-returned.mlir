// A broadcast whose result leaves the function.
func.func @f(%x: tensor<16xf32>) -> tensor<8x16xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %r = linalg.broadcast ins(%x : tensor<16xf32>) outs(%e : tensor<8x16xf32>) dimensions = [0]
  return %r : tensor<8x16xf32>
}
