// A convolution.
func.func @f(%x: tensor<1x10x10x4xf32>, %w: tensor<3x3x4x8xf32>, %o: tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32> {
  %r = linalg.conv_2d_nhwc_hwcf ins(%x, %w : tensor<1x10x10x4xf32>, tensor<3x3x4x8xf32>) outs(%o : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  return %r : tensor<1x8x8x8xf32>
}
