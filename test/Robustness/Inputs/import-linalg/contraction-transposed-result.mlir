// A contraction written transposed.
func.func @f(%a: tensor<8x64xf32>, %b: tensor<64x32xf32>, %c: tensor<32x8xf32>) -> tensor<32x8xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (n, m)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<8x64xf32>, tensor<64x32xf32>) outs(%c : tensor<32x8xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<32x8xf32>
  return %r : tensor<32x8xf32>
}
