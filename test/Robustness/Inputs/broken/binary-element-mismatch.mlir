// mul of f16 and f32
func.func @f(%a: tensor<8x64xf16>, %b: tensor<8x64xf32>) {
  %0 = mirage_kernel.mul %a, %b : tensor<8x64xf16>, tensor<8x64xf32> -> tensor<8x64xf16>
  return
}
