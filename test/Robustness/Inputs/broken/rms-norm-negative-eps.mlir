// rms_norm eps must be non-negative
func.func @f(%a: tensor<2x64xf16>) {
  %0 = mirage_kernel.rms_norm %a size 64 eps -1.0e-5 : tensor<2x64xf16>
  return
}
