// Bandwidth program bw_row_sum_1mb_f16: the sum of each row, 128x4096 f16 (1 MB per input)
// Written by bench/write-programs.py from bench/gpu/bandwidth.py; do not edit.

func.func @bw_row_sum_1mb_f16(%X: tensor<128x4096xf16>) -> tensor<128x1xf16> {
  %O = mirage_kernel.reduction %X dim 1 : tensor<128x4096xf16> -> tensor<128x1xf16>
  return %O : tensor<128x1xf16>
}
