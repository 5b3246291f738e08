// gqa_bs1 with a head dimension of 0 (found by mutating dimensions): the
// search's enumerator divided by zero (SIGFPE) splitting the empty tensors.
func.func @gqa_bs1(%Q: tensor<2x256x0xf16>, %K: tensor<2x0x4096xf16>, %V: tensor<2x4096x0xf16>) -> tensor<2x256x0xf16> {
  %S = mirage_kernel.matmul %Q, %K : tensor<2x256x0xf16>, tensor<2x0x4096xf16> -> tensor<2x256x4096xf16>
  %E = mirage_kernel.exp %S : tensor<2x256x4096xf16>
  %R = mirage_kernel.reduction %E dim 2 : tensor<2x256x4096xf16> -> tensor<2x256x1xf16>
  %P = mirage_kernel.div %E, %R : tensor<2x256x4096xf16>, tensor<2x256x1xf16> -> tensor<2x256x4096xf16>
  %O = mirage_kernel.matmul %P, %V : tensor<2x256x4096xf16>, tensor<2x4096x0xf16> -> tensor<2x256x0xf16>
  return %O : tensor<2x256x0xf16>
}
