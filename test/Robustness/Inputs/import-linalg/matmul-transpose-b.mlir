// A matmul with a transposed operand.
func.func @f(%a: tensor<8x64xf16>, %b: tensor<32x64xf16>, %c: tensor<8x32xf16>) -> tensor<8x32xf16> {
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<8x64xf16>, tensor<32x64xf16>) outs(%c : tensor<8x32xf16>) -> tensor<8x32xf16>
  return %r : tensor<8x32xf16>
}
