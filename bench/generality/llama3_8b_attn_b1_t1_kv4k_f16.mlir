// Generality program llama3_8b_attn_b1_t1_kv4k_f16: attention of batch 1, 1 query tokens, 32 query / 8 KV heads of dim 128, 4096 keys, f16
// Written by bench/write-programs.py from bench/gpu/generality.py; do not edit.

func.func @llama3_8b_attn_b1_t1_kv4k_f16(%Q: tensor<8x4x128xf16>, %K: tensor<8x128x4096xf16>, %V: tensor<8x4096x128xf16>) -> tensor<8x4x128xf16> {
  %S = mirage_kernel.matmul %Q, %K : tensor<8x4x128xf16>, tensor<8x128x4096xf16> -> tensor<8x4x4096xf16>
  %E = mirage_kernel.exp %S : tensor<8x4x4096xf16>
  %R = mirage_kernel.reduction %E dim 2 : tensor<8x4x4096xf16> -> tensor<8x4x1xf16>
  %P = mirage_kernel.div %E, %R : tensor<8x4x4096xf16>, tensor<8x4x1xf16> -> tensor<8x4x4096xf16>
  %O = mirage_kernel.matmul %P, %V : tensor<8x4x4096xf16>, tensor<8x4096x128xf16> -> tensor<8x4x128xf16>
  return %O : tensor<8x4x128xf16>
}
