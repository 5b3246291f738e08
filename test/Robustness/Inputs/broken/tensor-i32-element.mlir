// kernel tensors hold f16, bf16 or f32, not i32
func.func @f(%a: tensor<8x64xi32>, %b: tensor<8x64xi32>) -> tensor<8x64xi32> {
  %0 = mirage_kernel.add %a, %b : tensor<8x64xi32>, tensor<8x64xi32> -> tensor<8x64xi32>
  return %0 : tensor<8x64xi32>
}