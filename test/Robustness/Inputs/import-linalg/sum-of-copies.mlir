// A sum over a dimension its summand is broadcast along.
func.func @f(%a: tensor<8x4xf32>, %b: tensor<8xf32>, %c: tensor<8xf32>) -> tensor<8xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%a, %b : tensor<8x4xf32>, tensor<8xf32>) outs(%c : tensor<8xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %s = arith.addf %y, %acc : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}
