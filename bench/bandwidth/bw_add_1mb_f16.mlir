// Bandwidth program bw_add_1mb_f16: X + Y, 128x4096 f16 (1 MB per input)
// Written by bench/write-programs.py from bench/gpu/bandwidth.py; do not edit.

func.func @bw_add_1mb_f16(%X: tensor<128x4096xf16>, %Y: tensor<128x4096xf16>) -> tensor<128x4096xf16> {
  %O = mirage_kernel.add %X, %Y : tensor<128x4096xf16>, tensor<128x4096xf16> -> tensor<128x4096xf16>
  return %O : tensor<128x4096xf16>
}
