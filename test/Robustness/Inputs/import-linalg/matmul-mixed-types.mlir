// A matmul of f16 by f32.
func.func @f(%a: tensor<8x64xf16>, %b: tensor<64x32xf32>, %c: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<8x64xf16>, tensor<64x32xf32>) outs(%c : tensor<8x32xf32>) -> tensor<8x32xf32>
  return %r : tensor<8x32xf32>
}
