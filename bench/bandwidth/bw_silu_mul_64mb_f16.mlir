// Bandwidth program bw_silu_mul_64mb_f16: silu(G) * U, 8192x4096 f16 (64 MB per input)
// Written by bench/write-programs.py from bench/gpu/bandwidth.py; do not edit.

func.func @bw_silu_mul_64mb_f16(%G: tensor<8192x4096xf16>, %U: tensor<8192x4096xf16>) -> tensor<8192x4096xf16> {
  %A = mirage_kernel.silu %G : tensor<8192x4096xf16>
  %O = mirage_kernel.mul %A, %U : tensor<8192x4096xf16>, tensor<8192x4096xf16> -> tensor<8192x4096xf16>
  return %O : tensor<8192x4096xf16>
}
