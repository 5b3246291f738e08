// One kernel-level matmul of 2^33 multiply-adds (about a minute in the
// field on one core): the time limit stops it inside the matmul.
func.func @matmul(%a: tensor<2048x2048xf32>, %b: tensor<2048x2048xf32>) -> tensor<2048x2048xf32> {
  %c = mirage_kernel.matmul %a, %b : tensor<2048x2048xf32>, tensor<2048x2048xf32> -> tensor<2048x2048xf32>
  return %c : tensor<2048x2048xf32>
}
func.func @same(%a: tensor<2048x2048xf32>, %b: tensor<2048x2048xf32>) -> tensor<2048x2048xf32> {
  %c = mirage_kernel.matmul %a, %b : tensor<2048x2048xf32>, tensor<2048x2048xf32> -> tensor<2048x2048xf32>
  return %c : tensor<2048x2048xf32>
}
