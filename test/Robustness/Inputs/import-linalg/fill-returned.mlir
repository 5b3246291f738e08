// A constant tensor.
func.func @f() -> tensor<8x16xf32> {
  %c = arith.constant 2.0 : f32
  %e = tensor.empty() : tensor<8x16xf32>
  %r = linalg.fill ins(%c : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}
