// Real (scaled, max-subtracted) attention at decode size: Llama-3-8B's 32
// query heads in 8 KV groups of 4, head dim 128, 16 tokens (64 query rows per group), 16384 keys.
// softmax(Q K * 1/sqrt(128)) V with the row maximum subtracted before exp,
// as models compute it (bench/gpu/real_attention.py).

func.func @attention(%Q: tensor<8x64x128xf16>, %K: tensor<8x128x16384xf16>, %V: tensor<8x16384x128xf16>) -> tensor<8x64x128xf16> {
  %S = mirage_kernel.matmul %Q, %K : tensor<8x64x128xf16>, tensor<8x128x16384xf16> -> tensor<8x64x16384xf16>
  %T = mirage_kernel.mul_scalar %S by 0.0883883461 : tensor<8x64x16384xf16>
  %M = mirage_kernel.reduction_max %T dim 2 : tensor<8x64x16384xf16> -> tensor<8x64x1xf16>
  %D = mirage_kernel.sub %T, %M : tensor<8x64x16384xf16>, tensor<8x64x1xf16> -> tensor<8x64x16384xf16>
  %E = mirage_kernel.exp %D : tensor<8x64x16384xf16>
  %R = mirage_kernel.reduction %E dim 2 : tensor<8x64x16384xf16> -> tensor<8x64x1xf16>
  %P = mirage_kernel.div %E, %R : tensor<8x64x16384xf16>, tensor<8x64x1xf16> -> tensor<8x64x16384xf16>
  %O = mirage_kernel.matmul %P, %V : tensor<8x64x16384xf16>, tensor<8x16384x128xf16> -> tensor<8x64x128xf16>
  return %O : tensor<8x64x128xf16>
}
