// A matmul of dynamic shapes.
func.func @f(%a: tensor<?x64xf16>, %b: tensor<64x?xf16>, %c: tensor<?x?xf16>) -> tensor<?x?xf16> {
  %r = linalg.matmul ins(%a, %b : tensor<?x64xf16>, tensor<64x?xf16>) outs(%c : tensor<?x?xf16>) -> tensor<?x?xf16>
  return %r : tensor<?x?xf16>
}
