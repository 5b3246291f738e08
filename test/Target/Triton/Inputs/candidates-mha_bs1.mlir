module {
  func.func @mha_bs1(%arg0: tensor<32x16x64xf16>, %arg1: tensor<32x64x4096xf16>, %arg2: tensor<32x4096x64xf16>) -> tensor<32x16x64xf16> {
    %0:2 = mirage_kernel.graph_def(%arg3 = %arg0 : tensor<32x16x64xf16>, %arg4 = %arg1 : tensor<32x64x4096xf16>, %arg5 = %arg2 : tensor<32x4096x64xf16>) -> (tensor<32x16x4096xf16>, tensor<32x16x64xf16>) grid [8, 64, 1] block [128, 1, 1] forloop 4 {
      %2 = input_loader %arg3 imap <x = 0> : tensor<32x16x64xf16> -> !mirage_block.stensor<4x16x64xf16>
      %3 = input_loader %arg4 imap <x = 0, y = 2> fmap 2 : tensor<32x64x4096xf16> -> !mirage_block.stensor<4x64x16xf16>
      %4 = input_loader %arg5 imap <x = 0, y = 1> fmap 1 : tensor<32x4096x64xf16> -> !mirage_block.stensor<4x16x64xf16>
      %5 = matmul %2, %3 : !mirage_block.stensor<4x16x64xf16>, !mirage_block.stensor<4x64x16xf16> -> !mirage_block.stensor<4x16x16xf16>
      %6 = exp %5 : !mirage_block.stensor<4x16x16xf16>
      %7 = matmul %6, %4 : !mirage_block.stensor<4x16x16xf16>, !mirage_block.stensor<4x16x64xf16> -> !mirage_block.stensor<4x16x64xf16>
      %8 = reduction %6 dim 2 : !mirage_block.stensor<4x16x16xf16> -> !mirage_block.stensor<4x16x1xf16>
      %9 = forloop_accum %7 sum : !mirage_block.stensor<4x16x64xf16> -> !mirage_block.stensor<4x16x64xf16>
      %10 = forloop_accum %8 sum : !mirage_block.stensor<4x16x1xf16> -> !mirage_block.stensor<4x16x1xf16>
      %11 = output_saver %9 omap <x = 0, y = 2> : !mirage_block.stensor<4x16x64xf16> -> tensor<32x16x4096xf16>
      %12 = output_saver %10 omap <x = 0, y = 2> : !mirage_block.stensor<4x16x1xf16> -> tensor<32x16x64xf16>
      yield %11, %12 : tensor<32x16x4096xf16>, tensor<32x16x64xf16>
    }
    %1 = mirage_kernel.graph_def(%arg3 = %0#0 : tensor<32x16x4096xf16>, %arg4 = %0#1 : tensor<32x16x64xf16>) -> tensor<32x16x64xf16> grid [32, 16, 1] block [128, 1, 1] forloop 1 {
      %2 = input_loader %arg3 imap <x = 0, y = 1> : tensor<32x16x4096xf16> -> !mirage_block.stensor<1x1x4096xf16>
      %3 = input_loader %arg4 imap <x = 0, y = 1> : tensor<32x16x64xf16> -> !mirage_block.stensor<1x1x64xf16>
      %4 = reduction %2 dim 2 size 64 : !mirage_block.stensor<1x1x4096xf16> -> !mirage_block.stensor<1x1x64xf16>
      %5 = reduction %3 dim 2 : !mirage_block.stensor<1x1x64xf16> -> !mirage_block.stensor<1x1x1xf16>
      %6 = div %4, %5 : !mirage_block.stensor<1x1x64xf16>, !mirage_block.stensor<1x1x1xf16> -> !mirage_block.stensor<1x1x64xf16>
      %7 = output_saver %6 omap <x = 0, y = 1> : !mirage_block.stensor<1x1x64xf16> -> tensor<32x16x64xf16>
      yield %7 : tensor<32x16x64xf16>
    }
    return %1 : tensor<32x16x64xf16>
  }
  func.func @mha_bs1_as_written(%arg0: tensor<32x16x64xf16>, %arg1: tensor<32x64x4096xf16>, %arg2: tensor<32x4096x64xf16>) -> tensor<32x16x64xf16> attributes {mirage.tuning = {candidate = -1 : i64, compiler = "0.6.0+g8875a5bc9e7e", key = "72f6fbfe401fed081d3bba87db34a6d6b78f3a594621d22c33a21f45c3cf76b9"}} {
    %0 = mirage_kernel.matmul %arg0, %arg1 : tensor<32x16x64xf16>, tensor<32x64x4096xf16> -> tensor<32x16x4096xf16>
    %1 = mirage_kernel.exp %0 : tensor<32x16x4096xf16>
    %2 = mirage_kernel.reduction %1 dim 2 : tensor<32x16x4096xf16> -> tensor<32x16x1xf16>
    %3 = mirage_kernel.div %1, %2 : tensor<32x16x4096xf16>, tensor<32x16x1xf16> -> tensor<32x16x4096xf16>
    %4 = mirage_kernel.matmul %3, %arg2 : tensor<32x16x4096xf16>, tensor<32x4096x64xf16> -> tensor<32x16x64xf16>
    return %4 : tensor<32x16x64xf16>
  }
  func.func @mha_bs1_candidate_0(%arg0: tensor<32x16x64xf16>, %arg1: tensor<32x64x4096xf16>, %arg2: tensor<32x4096x64xf16>) -> tensor<32x16x64xf16> attributes {mirage.estimated_us = 26.986424406779658 : f64, mirage.global_bytes = 46333952 : i64, mirage.tuning = {candidate = 0 : i64, compiler = "0.6.0+g8875a5bc9e7e", key = "72f6fbfe401fed081d3bba87db34a6d6b78f3a594621d22c33a21f45c3cf76b9"}} {
    %0:2 = mirage_kernel.graph_def(%arg3 = %arg0 : tensor<32x16x64xf16>, %arg4 = %arg1 : tensor<32x64x4096xf16>, %arg5 = %arg2 : tensor<32x4096x64xf16>) -> (tensor<32x16x4096xf16>, tensor<32x16x64xf16>) grid [8, 64, 1] block [128, 1, 1] forloop 4 {
      %2 = input_loader %arg3 imap <x = 0> : tensor<32x16x64xf16> -> !mirage_block.stensor<4x16x64xf16>
      %3 = input_loader %arg4 imap <x = 0, y = 2> fmap 2 : tensor<32x64x4096xf16> -> !mirage_block.stensor<4x64x16xf16>
      %4 = input_loader %arg5 imap <x = 0, y = 1> fmap 1 : tensor<32x4096x64xf16> -> !mirage_block.stensor<4x16x64xf16>
      %5 = matmul %2, %3 : !mirage_block.stensor<4x16x64xf16>, !mirage_block.stensor<4x64x16xf16> -> !mirage_block.stensor<4x16x16xf16>
      %6 = exp %5 : !mirage_block.stensor<4x16x16xf16>
      %7 = matmul %6, %4 : !mirage_block.stensor<4x16x16xf16>, !mirage_block.stensor<4x16x64xf16> -> !mirage_block.stensor<4x16x64xf16>
      %8 = reduction %6 dim 2 : !mirage_block.stensor<4x16x16xf16> -> !mirage_block.stensor<4x16x1xf16>
      %9 = forloop_accum %7 sum : !mirage_block.stensor<4x16x64xf16> -> !mirage_block.stensor<4x16x64xf16>
      %10 = forloop_accum %8 sum : !mirage_block.stensor<4x16x1xf16> -> !mirage_block.stensor<4x16x1xf16>
      %11 = output_saver %9 omap <x = 0, y = 2> : !mirage_block.stensor<4x16x64xf16> -> tensor<32x16x4096xf16>
      %12 = output_saver %10 omap <x = 0, y = 2> : !mirage_block.stensor<4x16x1xf16> -> tensor<32x16x64xf16>
      yield %11, %12 : tensor<32x16x4096xf16>, tensor<32x16x64xf16>
    }
    %1 = mirage_kernel.graph_def(%arg3 = %0#0 : tensor<32x16x4096xf16>, %arg4 = %0#1 : tensor<32x16x64xf16>) -> tensor<32x16x64xf16> grid [32, 16, 1] block [128, 1, 1] forloop 1 {
      %2 = input_loader %arg3 imap <x = 0, y = 1> : tensor<32x16x4096xf16> -> !mirage_block.stensor<1x1x4096xf16>
      %3 = input_loader %arg4 imap <x = 0, y = 1> : tensor<32x16x64xf16> -> !mirage_block.stensor<1x1x64xf16>
      %4 = reduction %2 dim 2 size 64 : !mirage_block.stensor<1x1x4096xf16> -> !mirage_block.stensor<1x1x64xf16>
      %5 = reduction %3 dim 2 : !mirage_block.stensor<1x1x64xf16> -> !mirage_block.stensor<1x1x1xf16>
      %6 = div %4, %5 : !mirage_block.stensor<1x1x64xf16>, !mirage_block.stensor<1x1x1xf16> -> !mirage_block.stensor<1x1x64xf16>
      %7 = output_saver %6 omap <x = 0, y = 1> : !mirage_block.stensor<1x1x64xf16> -> tensor<32x16x64xf16>
      yield %7 : tensor<32x16x64xf16>
    }
    return %1 : tensor<32x16x64xf16>
  }
}

