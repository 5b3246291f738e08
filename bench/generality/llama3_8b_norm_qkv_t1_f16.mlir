// Generality program llama3_8b_norm_qkv_t1_f16: rms_norm then the QKV projection, 1 tokens (4096 -> 6144), f16
// Written by bench/write-programs.py from bench/gpu/generality.py; do not edit.

func.func @llama3_8b_norm_qkv_t1_f16(%X: tensor<1x4096xf16>, %W: tensor<4096x6144xf16>) -> tensor<1x6144xf16> {
  %N = mirage_kernel.rms_norm %X size 4096 : tensor<1x4096xf16>
  %O = mirage_kernel.matmul %N, %W : tensor<1x4096xf16>, tensor<4096x6144xf16> -> tensor<1x6144xf16>
  return %O : tensor<1x6144xf16>
}
