// Bandwidth program bw_add_16mb_f16: X + Y, 2048x4096 f16 (16 MB per input)
// Written by bench/write-programs.py from bench/gpu/bandwidth.py; do not edit.

func.func @bw_add_16mb_f16(%X: tensor<2048x4096xf16>, %Y: tensor<2048x4096xf16>) -> tensor<2048x4096xf16> {
  %O = mirage_kernel.add %X, %Y : tensor<2048x4096xf16>, tensor<2048x4096xf16> -> tensor<2048x4096xf16>
  return %O : tensor<2048x4096xf16>
}
