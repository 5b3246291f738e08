// A matmul with a transposed operand.
func.func @f(%a: tensor<64x8xf16>, %b: tensor<64x32xf16>, %c: tensor<8x32xf16>) -> tensor<8x32xf16> {
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<64x8xf16>, tensor<64x32xf16>) outs(%c : tensor<8x32xf16>) -> tensor<8x32xf16>
  return %r : tensor<8x32xf16>
}
