// A sum pooling.
func.func @f(%x: tensor<1x10x10x4xf32>, %w: tensor<3x3xf32>, %o: tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32> {
  %r = linalg.pooling_nhwc_sum ins(%x, %w : tensor<1x10x10x4xf32>, tensor<3x3xf32>) outs(%o : tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  return %r : tensor<1x8x8x4xf32>
}
