// Bandwidth program bw_softmax_1mb_f16: exp(S) / sum(exp(S)) of each row, 128x4096 f16 (1 MB per input)
// Written by bench/write-programs.py from bench/gpu/bandwidth.py; do not edit.

func.func @bw_softmax_1mb_f16(%S: tensor<128x4096xf16>) -> tensor<128x4096xf16> {
  %E = mirage_kernel.exp %S : tensor<128x4096xf16>
  %R = mirage_kernel.reduction %E dim 1 : tensor<128x4096xf16> -> tensor<128x1xf16>
  %O = mirage_kernel.div %E, %R : tensor<128x4096xf16>, tensor<128x1xf16> -> tensor<128x4096xf16>
  return %O : tensor<128x4096xf16>
}
