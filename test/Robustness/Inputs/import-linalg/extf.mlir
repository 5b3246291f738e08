// A cast to f32.
func.func @f(%x: tensor<8x16xf16>) -> tensor<8x16xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x16xf16>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%a: f16, %o: f32):
    %y = arith.extf %a : f16 to f32
    linalg.yield %y : f32
  } -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}
