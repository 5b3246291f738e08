// Bandwidth program bw_row_sum_64mb_f16: the sum of each row, 8192x4096 f16 (64 MB per input)
// Written by bench/write-programs.py from bench/gpu/bandwidth.py; do not edit.

func.func @bw_row_sum_64mb_f16(%X: tensor<8192x4096xf16>) -> tensor<8192x1xf16> {
  %O = mirage_kernel.reduction %X dim 1 : tensor<8192x4096xf16> -> tensor<8192x1xf16>
  return %O : tensor<8192x1xf16>
}
