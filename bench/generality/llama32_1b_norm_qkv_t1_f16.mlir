// Generality program llama32_1b_norm_qkv_t1_f16: rms_norm then the QKV projection, 1 tokens (2048 -> 3072), f16
// Written by bench/write-programs.py from bench/gpu/generality.py; do not edit.

func.func @llama32_1b_norm_qkv_t1_f16(%X: tensor<1x2048xf16>, %W: tensor<2048x3072xf16>) -> tensor<1x3072xf16> {
  %N = mirage_kernel.rms_norm %X size 2048 : tensor<1x2048xf16>
  %O = mirage_kernel.matmul %N, %W : tensor<1x2048xf16>, tensor<2048x3072xf16> -> tensor<1x3072xf16>
  return %O : tensor<1x3072xf16>
}
