// Generality program qwen25_7b_attn_b1_t1_kv32k_bf16: attention of batch 1, 1 query tokens, 28 query / 4 KV heads of dim 128, 32768 keys, bf16
// Written by bench/write-programs.py from bench/gpu/generality.py; do not edit.

func.func @qwen25_7b_attn_b1_t1_kv32k_bf16(%Q: tensor<4x7x128xbf16>, %K: tensor<4x128x32768xbf16>, %V: tensor<4x32768x128xbf16>) -> tensor<4x7x128xbf16> {
  %S = mirage_kernel.matmul %Q, %K : tensor<4x7x128xbf16>, tensor<4x128x32768xbf16> -> tensor<4x7x32768xbf16>
  %E = mirage_kernel.exp %S : tensor<4x7x32768xbf16>
  %R = mirage_kernel.reduction %E dim 2 : tensor<4x7x32768xbf16> -> tensor<4x7x1xbf16>
  %P = mirage_kernel.div %E, %R : tensor<4x7x32768xbf16>, tensor<4x7x1xbf16> -> tensor<4x7x32768xbf16>
  %O = mirage_kernel.matmul %P, %V : tensor<4x7x32768xbf16>, tensor<4x32768x128xbf16> -> tensor<4x7x128xbf16>
  return %O : tensor<4x7x128xbf16>
}
