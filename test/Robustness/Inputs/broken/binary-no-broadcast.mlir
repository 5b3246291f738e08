// add of 8x64 and 8x32: neither equal nor 1
func.func @f(%a: tensor<8x64xf16>, %b: tensor<8x32xf16>) {
  %0 = mirage_kernel.add %a, %b : tensor<8x64xf16>, tensor<8x32xf16> -> tensor<8x64xf16>
  return
}
