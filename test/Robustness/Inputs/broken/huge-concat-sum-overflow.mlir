// concat of two dims of 2^62+2^61 overflows the result dim
func.func @f(%a: tensor<6917529027641081856xf16>) {
  %0 = mirage_kernel.concat %a, %a dim 0 : tensor<6917529027641081856xf16>, tensor<6917529027641081856xf16> -> tensor<4611686018427387904xf16>
  return
}
