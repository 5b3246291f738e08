// Generality program mistral_7b_attn_b8_t1_kv1k_f16: attention of batch 8, 1 query tokens, 32 query / 8 KV heads of dim 128, 1024 keys, f16
// Written by bench/write-programs.py from bench/gpu/generality.py; do not edit.

func.func @mistral_7b_attn_b8_t1_kv1k_f16(%Q: tensor<64x4x128xf16>, %K: tensor<64x128x1024xf16>, %V: tensor<64x1024x128xf16>) -> tensor<64x4x128xf16> {
  %S = mirage_kernel.matmul %Q, %K : tensor<64x4x128xf16>, tensor<64x128x1024xf16> -> tensor<64x4x1024xf16>
  %E = mirage_kernel.exp %S : tensor<64x4x1024xf16>
  %R = mirage_kernel.reduction %E dim 2 : tensor<64x4x1024xf16> -> tensor<64x4x1xf16>
  %P = mirage_kernel.div %E, %R : tensor<64x4x1024xf16>, tensor<64x4x1xf16> -> tensor<64x4x1024xf16>
  %O = mirage_kernel.matmul %P, %V : tensor<64x4x1024xf16>, tensor<64x1024x128xf16> -> tensor<64x4x128xf16>
  return %O : tensor<64x4x128xf16>
}
