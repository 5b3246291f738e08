// A contraction over two dimensions.
func.func @f(%a: tensor<8x4x16xf32>, %b: tensor<4x16x32xf32>, %c: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(m, n, k, l) -> (m, k, l)>, affine_map<(m, n, k, l) -> (k, l, n)>, affine_map<(m, n, k, l) -> (m, n)>],
                       iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%a, %b : tensor<8x4x16xf32>, tensor<4x16x32xf32>) outs(%c : tensor<8x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<8x32xf32>
  return %r : tensor<8x32xf32>
}
