// Generality program qwen25_7b_mlp_t1_bf16: gated MLP silu(X W1) * (X W2), 1 tokens (3584 -> 18944), bf16
// Written by bench/write-programs.py from bench/gpu/generality.py; do not edit.

func.func @qwen25_7b_mlp_t1_bf16(%X: tensor<1x3584xbf16>, %W1: tensor<3584x18944xbf16>, %W2: tensor<3584x18944xbf16>) -> tensor<1x18944xbf16> {
  %G = mirage_kernel.matmul %X, %W1 : tensor<1x3584xbf16>, tensor<3584x18944xbf16> -> tensor<1x18944xbf16>
  %A = mirage_kernel.silu %G : tensor<1x18944xbf16>
  %U = mirage_kernel.matmul %X, %W2 : tensor<1x3584xbf16>, tensor<3584x18944xbf16> -> tensor<1x18944xbf16>
  %H = mirage_kernel.mul %A, %U : tensor<1x18944xbf16>, tensor<1x18944xbf16> -> tensor<1x18944xbf16>
  return %H : tensor<1x18944xbf16>
}
