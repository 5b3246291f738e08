// Generality program qwen25_7b_norm_qkv_t2048_bf16: rms_norm then the QKV projection, 2048 tokens (3584 -> 4608), bf16
// Written by bench/write-programs.py from bench/gpu/generality.py; do not edit.

func.func @qwen25_7b_norm_qkv_t2048_bf16(%X: tensor<2048x3584xbf16>, %W: tensor<3584x4608xbf16>) -> tensor<2048x4608xbf16> {
  %N = mirage_kernel.rms_norm %X size 3584 : tensor<2048x3584xbf16>
  %O = mirage_kernel.matmul %N, %W : tensor<2048x3584xbf16>, tensor<3584x4608xbf16> -> tensor<2048x4608xbf16>
  return %O : tensor<2048x4608xbf16>
}
