// concat dim 2 of rank-2 tensors
func.func @f(%a: tensor<8x64xf16>) {
  %0 = mirage_kernel.concat %a, %a dim 2 : tensor<8x64xf16>, tensor<8x64xf16> -> tensor<8x128xf16>
  return
}
