// Generality program llama3_8b_softmax_t1_k8192_f16: row softmax of the attention scores of 32 heads, 1 tokens over 8192 keys, f16
// Written by bench/write-programs.py from bench/gpu/generality.py; do not edit.

func.func @llama3_8b_softmax_t1_k8192_f16(%S: tensor<32x8192xf16>) -> tensor<32x8192xf16> {
  %E = mirage_kernel.exp %S : tensor<32x8192xf16>
  %R = mirage_kernel.reduction %E dim 1 : tensor<32x8192xf16> -> tensor<32x1xf16>
  %O = mirage_kernel.div %E, %R : tensor<32x8192xf16>, tensor<32x1xf16> -> tensor<32x8192xf16>
  return %O : tensor<32x8192xf16>
}
