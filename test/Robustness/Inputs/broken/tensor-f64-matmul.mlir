// matmul on f64 tensors
func.func @f(%a: tensor<8x64xf64>, %b: tensor<64x8xf64>) -> tensor<8x8xf64> {
  %0 = mirage_kernel.matmul %a, %b : tensor<8x64xf64>, tensor<64x8xf64> -> tensor<8x8xf64>
  return %0 : tensor<8x8xf64>
}