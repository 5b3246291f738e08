// Malformed: matmul shapes that do not agree.
func.func @f(%a: tensor<8x64xf16>, %b: tensor<32x32xf16>, %c: tensor<8x32xf16>) -> tensor<8x32xf16> {
  %r = linalg.matmul ins(%a, %b : tensor<8x64xf16>, tensor<32x32xf16>) outs(%c : tensor<8x32xf16>) -> tensor<8x32xf16>
  return %r : tensor<8x32xf16>
}
