// Bandwidth program bw_row_sum_16mb_f16: the sum of each row, 2048x4096 f16 (16 MB per input)
// Written by bench/write-programs.py from bench/gpu/bandwidth.py; do not edit.

func.func @bw_row_sum_16mb_f16(%X: tensor<2048x4096xf16>) -> tensor<2048x1xf16> {
  %O = mirage_kernel.reduction %X dim 1 : tensor<2048x4096xf16> -> tensor<2048x1xf16>
  return %O : tensor<2048x1xf16>
}
