// Generality program llama3_8b_mlp_t8_f16: gated MLP silu(X W1) * (X W2), 8 tokens (4096 -> 14336), f16
// Written by bench/write-programs.py from bench/gpu/generality.py; do not edit.

func.func @llama3_8b_mlp_t8_f16(%X: tensor<8x4096xf16>, %W1: tensor<4096x14336xf16>, %W2: tensor<4096x14336xf16>) -> tensor<8x14336xf16> {
  %G = mirage_kernel.matmul %X, %W1 : tensor<8x4096xf16>, tensor<4096x14336xf16> -> tensor<8x14336xf16>
  %A = mirage_kernel.silu %G : tensor<8x14336xf16>
  %U = mirage_kernel.matmul %X, %W2 : tensor<8x4096xf16>, tensor<4096x14336xf16> -> tensor<8x14336xf16>
  %H = mirage_kernel.mul %A, %U : tensor<8x14336xf16>, tensor<8x14336xf16> -> tensor<8x14336xf16>
  return %H : tensor<8x14336xf16>
}
