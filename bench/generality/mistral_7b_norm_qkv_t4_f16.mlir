// Generality program mistral_7b_norm_qkv_t4_f16: rms_norm then the QKV projection, 4 tokens (4096 -> 6144), f16
// Written by bench/write-programs.py from bench/gpu/generality.py; do not edit.

func.func @mistral_7b_norm_qkv_t4_f16(%X: tensor<4x4096xf16>, %W: tensor<4096x6144xf16>) -> tensor<4x6144xf16> {
  %N = mirage_kernel.rms_norm %X size 4096 : tensor<4x4096xf16>
  %O = mirage_kernel.matmul %N, %W : tensor<4x4096xf16>, tensor<4096x6144xf16> -> tensor<4x6144xf16>
  return %O : tensor<4x6144xf16>
}
