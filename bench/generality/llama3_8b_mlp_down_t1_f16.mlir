// Generality program llama3_8b_mlp_down_t1_f16: gated MLP silu(X W1) * (X W2) then its down projection W3, 1 tokens (4096 -> 14336), f16
// Written by bench/write-programs.py from bench/gpu/generality.py; do not edit.

func.func @llama3_8b_mlp_down_t1_f16(%X: tensor<1x4096xf16>, %W1: tensor<4096x14336xf16>, %W2: tensor<4096x14336xf16>, %W3: tensor<14336x4096xf16>) -> tensor<1x4096xf16> {
  %G = mirage_kernel.matmul %X, %W1 : tensor<1x4096xf16>, tensor<4096x14336xf16> -> tensor<1x14336xf16>
  %A = mirage_kernel.silu %G : tensor<1x14336xf16>
  %U = mirage_kernel.matmul %X, %W2 : tensor<1x4096xf16>, tensor<4096x14336xf16> -> tensor<1x14336xf16>
  %H = mirage_kernel.mul %A, %U : tensor<1x14336xf16>, tensor<1x14336xf16> -> tensor<1x14336xf16>
  %O = mirage_kernel.matmul %H, %W3 : tensor<1x14336xf16>, tensor<14336x4096xf16> -> tensor<1x4096xf16>
  return %O : tensor<1x4096xf16>
}
