// A generic with two results.
func.func @f(%x: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %e = tensor.empty() : tensor<8x16xf32>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x16xf32>) outs(%e, %e : tensor<8x16xf32>, tensor<8x16xf32>) {
  ^bb0(%a: f32, %o: f32, %p: f32):
    %y = math.exp %a : f32
    %z = math.sqrt %a : f32
    linalg.yield %y, %z : f32, f32
  } -> (tensor<8x16xf32>, tensor<8x16xf32>)
  return %r#0, %r#1 : tensor<8x16xf32>, tensor<8x16xf32>
}
