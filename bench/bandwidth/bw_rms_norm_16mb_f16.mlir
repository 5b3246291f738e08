// Bandwidth program bw_rms_norm_16mb_f16: rms_norm of each row (no weight, eps 0), 2048x4096 f16 (16 MB per input)
// Written by bench/write-programs.py from bench/gpu/bandwidth.py; do not edit.

func.func @bw_rms_norm_16mb_f16(%X: tensor<2048x4096xf16>) -> tensor<2048x4096xf16> {
  %O = mirage_kernel.rms_norm %X size 4096 : tensor<2048x4096xf16>
  return %O : tensor<2048x4096xf16>
}
