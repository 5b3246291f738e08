// Generality program qwen25_7b_softmax_t4_k4096_bf16: row softmax of the attention scores of 28 heads, 4 tokens over 4096 keys, bf16
// Written by bench/write-programs.py from bench/gpu/generality.py; do not edit.

func.func @qwen25_7b_softmax_t4_k4096_bf16(%S: tensor<112x4096xbf16>) -> tensor<112x4096xbf16> {
  %E = mirage_kernel.exp %S : tensor<112x4096xbf16>
  %R = mirage_kernel.reduction %E dim 1 : tensor<112x4096xbf16> -> tensor<112x1xbf16>
  %O = mirage_kernel.div %E, %R : tensor<112x4096xbf16>, tensor<112x1xbf16> -> tensor<112x4096xbf16>
  return %O : tensor<112x4096xbf16>
}
