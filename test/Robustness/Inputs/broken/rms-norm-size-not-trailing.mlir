// rms_norm size 8 is not a product of trailing dims of 2x8x64
func.func @f(%a: tensor<2x8x64xf16>) {
  %0 = mirage_kernel.rms_norm %a size 8 : tensor<2x8x64xf16>
  return
}
