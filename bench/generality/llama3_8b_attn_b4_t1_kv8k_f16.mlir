// Generality program llama3_8b_attn_b4_t1_kv8k_f16: attention of batch 4, 1 query tokens, 32 query / 8 KV heads of dim 128, 8192 keys, f16
// Written by bench/write-programs.py from bench/gpu/generality.py; do not edit.

func.func @llama3_8b_attn_b4_t1_kv8k_f16(%Q: tensor<32x4x128xf16>, %K: tensor<32x128x8192xf16>, %V: tensor<32x8192x128xf16>) -> tensor<32x4x128xf16> {
  %S = mirage_kernel.matmul %Q, %K : tensor<32x4x128xf16>, tensor<32x128x8192xf16> -> tensor<32x4x8192xf16>
  %E = mirage_kernel.exp %S : tensor<32x4x8192xf16>
  %R = mirage_kernel.reduction %E dim 2 : tensor<32x4x8192xf16> -> tensor<32x4x1xf16>
  %P = mirage_kernel.div %E, %R : tensor<32x4x8192xf16>, tensor<32x4x1xf16> -> tensor<32x4x8192xf16>
  %O = mirage_kernel.matmul %P, %V : tensor<32x4x8192xf16>, tensor<32x8192x128xf16> -> tensor<32x4x128xf16>
  return %O : tensor<32x4x128xf16>
}
