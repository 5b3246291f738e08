// chunk dim -2^63
func.func @f(%a: tensor<8x64xf16>) {
  %0:2 = mirage_kernel.chunk %a dim -9223372036854775808 parts 2 : tensor<8x64xf16> -> tensor<8x32xf16>, tensor<8x32xf16>
  return
}
