// Bandwidth program bw_rms_norm_1mb_f16: rms_norm of each row (no weight, eps 0), 128x4096 f16 (1 MB per input)
// Written by bench/write-programs.py from bench/gpu/bandwidth.py; do not edit.

func.func @bw_rms_norm_1mb_f16(%X: tensor<128x4096xf16>) -> tensor<128x4096xf16> {
  %O = mirage_kernel.rms_norm %X size 4096 : tensor<128x4096xf16>
  return %O : tensor<128x4096xf16>
}
