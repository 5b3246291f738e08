// A cast to f16.
func.func @f(%x: tensor<8x16xf32>) -> tensor<8x16xf16> {
  %e = tensor.empty() : tensor<8x16xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x16xf32>) outs(%e : tensor<8x16xf16>) {
  ^bb0(%a: f32, %o: f16):
    %y = arith.truncf %a : f32 to f16
    linalg.yield %y : f16
  } -> tensor<8x16xf16>
  return %r : tensor<8x16xf16>
}
