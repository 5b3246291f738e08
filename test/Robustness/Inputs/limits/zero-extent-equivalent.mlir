// The field checker on tensors with an extent of 0 (it divided by zero in
// the matmul, SIGFPE).
func.func @ref(%x: tensor<0x4xf32>, %y: tensor<4x8xf32>) -> tensor<0x8xf32> {
  %m = mirage_kernel.matmul %x, %y : tensor<0x4xf32>, tensor<4x8xf32> -> tensor<0x8xf32>
  return %m : tensor<0x8xf32>
}
func.func @candidate(%x: tensor<0x4xf32>, %y: tensor<4x8xf32>) -> tensor<0x8xf32> {
  %n = mirage_kernel.neg %x : tensor<0x4xf32>
  %m = mirage_kernel.matmul %n, %y : tensor<0x4xf32>, tensor<4x8xf32> -> tensor<0x8xf32>
  %o = mirage_kernel.neg %m : tensor<0x8xf32>
  return %o : tensor<0x8xf32>
}
