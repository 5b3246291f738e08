// Generality program mistral_7b_mlp_down_t16_bf16: gated MLP silu(X W1) * (X W2) then its down projection W3, 16 tokens (4096 -> 14336), bf16
// Written by bench/write-programs.py from bench/gpu/generality.py; do not edit.

func.func @mistral_7b_mlp_down_t16_bf16(%X: tensor<16x4096xbf16>, %W1: tensor<4096x14336xbf16>, %W2: tensor<4096x14336xbf16>, %W3: tensor<14336x4096xbf16>) -> tensor<16x4096xbf16> {
  %G = mirage_kernel.matmul %X, %W1 : tensor<16x4096xbf16>, tensor<4096x14336xbf16> -> tensor<16x14336xbf16>
  %A = mirage_kernel.silu %G : tensor<16x14336xbf16>
  %U = mirage_kernel.matmul %X, %W2 : tensor<16x4096xbf16>, tensor<4096x14336xbf16> -> tensor<16x14336xbf16>
  %H = mirage_kernel.mul %A, %U : tensor<16x14336xbf16>, tensor<16x14336xbf16> -> tensor<16x14336xbf16>
  %O = mirage_kernel.matmul %H, %W3 : tensor<16x14336xbf16>, tensor<14336x4096xbf16> -> tensor<16x4096xbf16>
  return %O : tensor<16x4096xbf16>
}
