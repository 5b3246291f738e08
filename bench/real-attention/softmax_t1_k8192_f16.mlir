// Softmax as models write it, the row maximum subtracted before exp: the
// attention scores of 32 heads, one token over 8192 keys
// (bench/gpu/real_attention.py).

func.func @softmax(%S: tensor<32x8192xf16>) -> tensor<32x8192xf16> {
  %M = mirage_kernel.reduction_max %S dim 1 : tensor<32x8192xf16> -> tensor<32x1xf16>
  %D = mirage_kernel.sub %S, %M : tensor<32x8192xf16>, tensor<32x1xf16> -> tensor<32x8192xf16>
  %E = mirage_kernel.exp %D : tensor<32x8192xf16>
  %R = mirage_kernel.reduction %E dim 1 : tensor<32x8192xf16> -> tensor<32x1xf16>
  %P = mirage_kernel.div %E, %R : tensor<32x8192xf16>, tensor<32x1xf16> -> tensor<32x8192xf16>
  return %P : tensor<32x8192xf16>
}
