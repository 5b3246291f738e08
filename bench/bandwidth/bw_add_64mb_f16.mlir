// Bandwidth program bw_add_64mb_f16: X + Y, 8192x4096 f16 (64 MB per input)
// Written by bench/write-programs.py from bench/gpu/bandwidth.py; do not edit.

func.func @bw_add_64mb_f16(%X: tensor<8192x4096xf16>, %Y: tensor<8192x4096xf16>) -> tensor<8192x4096xf16> {
  %O = mirage_kernel.add %X, %Y : tensor<8192x4096xf16>, tensor<8192x4096xf16> -> tensor<8192x4096xf16>
  return %O : tensor<8192x4096xf16>
}
