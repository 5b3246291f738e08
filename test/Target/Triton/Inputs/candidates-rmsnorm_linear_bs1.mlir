module {
  func.func @rmsnorm_linear_bs1(%arg0: tensor<2x4096xf16>, %arg1: tensor<4096x6144xf16>) -> tensor<2x6144xf16> {
    %0 = mirage_kernel.graph_def(%arg2 = %arg0 : tensor<2x4096xf16>, %arg3 = %arg1 : tensor<4096x6144xf16>) -> tensor<2x6144xf16> grid [128, 1, 1] block [128, 1, 1] forloop 16 {
      %1 = input_loader %arg2 imap <> fmap 1 : tensor<2x4096xf16> -> !mirage_block.stensor<2x256xf16>
      %2 = input_loader %arg3 imap <x = 1> fmap 0 : tensor<4096x6144xf16> -> !mirage_block.stensor<256x48xf16>
      %3 = matmul %1, %2 : !mirage_block.stensor<2x256xf16>, !mirage_block.stensor<256x48xf16> -> !mirage_block.stensor<2x48xf16>
      %4 = forloop_accum %3 sum : !mirage_block.stensor<2x48xf16> -> !mirage_block.stensor<2x48xf16>
      %5 = forloop_accum %1 rms_last : !mirage_block.stensor<2x256xf16> -> !mirage_block.stensor<2x1xf16>
      %6 = div %4, %5 : !mirage_block.stensor<2x48xf16>, !mirage_block.stensor<2x1xf16> -> !mirage_block.stensor<2x48xf16>
      %7 = output_saver %6 omap <x = 1> : !mirage_block.stensor<2x48xf16> -> tensor<2x6144xf16>
      yield %7 : tensor<2x6144xf16>
    }
    return %0 : tensor<2x6144xf16>
  }
  func.func @rmsnorm_linear_bs1_as_written(%arg0: tensor<2x4096xf16>, %arg1: tensor<4096x6144xf16>) -> tensor<2x6144xf16> attributes {mirage.tuning = {candidate = -1 : i64, compiler = "0.6.0+gc2096881c5c1", key = "203483526baea0aeec34364ab19ba1eceb48312cb8f203bbbbf1ccea24cb26e0"}} {
    %0 = mirage_kernel.rms_norm %arg0 size 4096 : tensor<2x4096xf16>
    %1 = mirage_kernel.matmul %0, %arg1 : tensor<2x4096xf16>, tensor<4096x6144xf16> -> tensor<2x6144xf16>
    return %1 : tensor<2x6144xf16>
  }
  func.func @rmsnorm_linear_bs1_candidate_0(%arg0: tensor<2x4096xf16>, %arg1: tensor<4096x6144xf16>) -> tensor<2x6144xf16> attributes {mirage.estimated_us = 22.686455593220337 : f64, mirage.global_bytes = 52453376 : i64, mirage.tuning = {candidate = 0 : i64, compiler = "0.6.0+gc2096881c5c1", key = "203483526baea0aeec34364ab19ba1eceb48312cb8f203bbbbf1ccea24cb26e0"}} {
    %0 = mirage_kernel.graph_def(%arg2 = %arg0 : tensor<2x4096xf16>, %arg3 = %arg1 : tensor<4096x6144xf16>) -> tensor<2x6144xf16> grid [128, 1, 1] block [128, 1, 1] forloop 16 {
      %1 = input_loader %arg2 imap <> fmap 1 : tensor<2x4096xf16> -> !mirage_block.stensor<2x256xf16>
      %2 = input_loader %arg3 imap <x = 1> fmap 0 : tensor<4096x6144xf16> -> !mirage_block.stensor<256x48xf16>
      %3 = matmul %1, %2 : !mirage_block.stensor<2x256xf16>, !mirage_block.stensor<256x48xf16> -> !mirage_block.stensor<2x48xf16>
      %4 = forloop_accum %3 sum : !mirage_block.stensor<2x48xf16> -> !mirage_block.stensor<2x48xf16>
      %5 = forloop_accum %1 rms_last : !mirage_block.stensor<2x256xf16> -> !mirage_block.stensor<2x1xf16>
      %6 = div %4, %5 : !mirage_block.stensor<2x48xf16>, !mirage_block.stensor<2x1xf16> -> !mirage_block.stensor<2x48xf16>
      %7 = output_saver %6 omap <x = 1> : !mirage_block.stensor<2x48xf16> -> tensor<2x6144xf16>
      yield %7 : tensor<2x6144xf16>
    }
    return %0 : tensor<2x6144xf16>
  }
}

