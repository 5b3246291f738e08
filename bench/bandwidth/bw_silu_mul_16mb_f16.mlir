// Bandwidth program bw_silu_mul_16mb_f16: silu(G) * U, 2048x4096 f16 (16 MB per input)
// Written by bench/write-programs.py from bench/gpu/bandwidth.py; do not edit.

func.func @bw_silu_mul_16mb_f16(%G: tensor<2048x4096xf16>, %U: tensor<2048x4096xf16>) -> tensor<2048x4096xf16> {
  %A = mirage_kernel.silu %G : tensor<2048x4096xf16>
  %O = mirage_kernel.mul %A, %U : tensor<2048x4096xf16>, tensor<2048x4096xf16> -> tensor<2048x4096xf16>
  return %O : tensor<2048x4096xf16>
}
