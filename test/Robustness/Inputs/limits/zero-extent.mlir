// Tensors with an extent of 0 (valid IR; tiles may not have one): the
// evaluator divided by zero (SIGFPE) in matmul (batches = size / (m * k))
// and in the box copies of concat and chunk (rows = elements / row length).
func.func @matmul(%x: tensor<0x4xf32>, %y: tensor<4x8xf32>) -> tensor<0x8xf32> {
  %m = mirage_kernel.matmul %x, %y : tensor<0x4xf32>, tensor<4x8xf32> -> tensor<0x8xf32>
  return %m : tensor<0x8xf32>
}
func.func @contract_nothing(%x: tensor<2x0xf32>, %y: tensor<0x3xf32>) -> tensor<2x3xf32> {
  %m = mirage_kernel.matmul %x, %y : tensor<2x0xf32>, tensor<0x3xf32> -> tensor<2x3xf32>
  return %m : tensor<2x3xf32>
}
func.func @concat(%x: tensor<4x0xf32>, %y: tensor<4x0xf32>) -> tensor<8x0xf32> {
  %c = mirage_kernel.concat %x, %y dim 0 : tensor<4x0xf32>, tensor<4x0xf32> -> tensor<8x0xf32>
  return %c : tensor<8x0xf32>
}
func.func @chunk(%x: tensor<4x0xf32>) -> (tensor<2x0xf32>, tensor<2x0xf32>) {
  %a, %b = mirage_kernel.chunk %x dim 0 parts 2 : tensor<4x0xf32> -> tensor<2x0xf32>, tensor<2x0xf32>
  return %a, %b : tensor<2x0xf32>, tensor<2x0xf32>
}
