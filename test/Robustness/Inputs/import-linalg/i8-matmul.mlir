// An integer matmul.
func.func @f(%a: tensor<8x64xi8>, %b: tensor<64x32xi8>, %c: tensor<8x32xi32>) -> tensor<8x32xi32> {
  %r = linalg.matmul ins(%a, %b : tensor<8x64xi8>, tensor<64x32xi8>) outs(%c : tensor<8x32xi32>) -> tensor<8x32xi32>
  return %r : tensor<8x32xi32>
}
