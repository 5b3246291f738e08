// A matmul of f32 into f16.
func.func @f(%a: tensor<8x64xf32>, %b: tensor<64x32xf32>, %c: tensor<8x32xf16>) -> tensor<8x32xf16> {
  %r = linalg.matmul ins(%a, %b : tensor<8x64xf32>, tensor<64x32xf32>) outs(%c : tensor<8x32xf16>) -> tensor<8x32xf16>
  return %r : tensor<8x32xf16>
}
