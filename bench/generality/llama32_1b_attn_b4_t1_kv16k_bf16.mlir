// Generality program llama32_1b_attn_b4_t1_kv16k_bf16: attention of batch 4, 1 query tokens, 32 query / 8 KV heads of dim 64, 16384 keys, bf16
// Written by bench/write-programs.py from bench/gpu/generality.py; do not edit.

func.func @llama32_1b_attn_b4_t1_kv16k_bf16(%Q: tensor<32x4x64xbf16>, %K: tensor<32x64x16384xbf16>, %V: tensor<32x16384x64xbf16>) -> tensor<32x4x64xbf16> {
  %S = mirage_kernel.matmul %Q, %K : tensor<32x4x64xbf16>, tensor<32x64x16384xbf16> -> tensor<32x4x16384xbf16>
  %E = mirage_kernel.exp %S : tensor<32x4x16384xbf16>
  %R = mirage_kernel.reduction %E dim 2 : tensor<32x4x16384xbf16> -> tensor<32x4x1xbf16>
  %P = mirage_kernel.div %E, %R : tensor<32x4x16384xbf16>, tensor<32x4x1xbf16> -> tensor<32x4x16384xbf16>
  %O = mirage_kernel.matmul %P, %V : tensor<32x4x16384xbf16>, tensor<32x16384x64xbf16> -> tensor<32x4x64xbf16>
  return %O : tensor<32x4x64xbf16>
}
