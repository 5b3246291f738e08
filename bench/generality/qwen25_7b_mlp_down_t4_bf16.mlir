// Generality program qwen25_7b_mlp_down_t4_bf16: gated MLP silu(X W1) * (X W2) then its down projection W3, 4 tokens (3584 -> 18944), bf16
// Written by bench/write-programs.py from bench/gpu/generality.py; do not edit.

func.func @qwen25_7b_mlp_down_t4_bf16(%X: tensor<4x3584xbf16>, %W1: tensor<3584x18944xbf16>, %W2: tensor<3584x18944xbf16>, %W3: tensor<18944x3584xbf16>) -> tensor<4x3584xbf16> {
  %G = mirage_kernel.matmul %X, %W1 : tensor<4x3584xbf16>, tensor<3584x18944xbf16> -> tensor<4x18944xbf16>
  %A = mirage_kernel.silu %G : tensor<4x18944xbf16>
  %U = mirage_kernel.matmul %X, %W2 : tensor<4x3584xbf16>, tensor<3584x18944xbf16> -> tensor<4x18944xbf16>
  %H = mirage_kernel.mul %A, %U : tensor<4x18944xbf16>, tensor<4x18944xbf16> -> tensor<4x18944xbf16>
  %O = mirage_kernel.matmul %H, %W3 : tensor<4x18944xbf16>, tensor<18944x3584xbf16> -> tensor<4x3584xbf16>
  return %O : tensor<4x3584xbf16>
}
