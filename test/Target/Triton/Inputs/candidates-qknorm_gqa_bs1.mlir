module {
  func.func @qknorm_gqa_bs1(%arg0: tensor<2x256x64xf16>, %arg1: tensor<2x64x4096xf16>, %arg2: tensor<2x4096x64xf16>) -> tensor<2x256x64xf16> {
    %0:2 = mirage_kernel.graph_def(%arg3 = %arg0 : tensor<2x256x64xf16>, %arg4 = %arg1 : tensor<2x64x4096xf16>, %arg5 = %arg2 : tensor<2x4096x64xf16>) -> (tensor<2x256x4096xf16>, tensor<2x256x64xf16>) grid [2, 64, 4] block [128, 1, 1] forloop 1 {
      %2 = input_loader %arg3 imap <x = 0, z = 1> : tensor<2x256x64xf16> -> !mirage_block.stensor<1x64x64xf16>
      %3 = input_loader %arg4 imap <x = 0, y = 2> : tensor<2x64x4096xf16> -> !mirage_block.stensor<1x64x64xf16>
      %4 = input_loader %arg5 imap <x = 0, y = 1> : tensor<2x4096x64xf16> -> !mirage_block.stensor<1x64x64xf16>
      %5 = rms_norm %2 size 64 : !mirage_block.stensor<1x64x64xf16>
      %6 = matmul %5, %3 : !mirage_block.stensor<1x64x64xf16>, !mirage_block.stensor<1x64x64xf16> -> !mirage_block.stensor<1x64x64xf16>
      %7 = exp %6 : !mirage_block.stensor<1x64x64xf16>
      %8 = rms_norm %4 size 64 : !mirage_block.stensor<1x64x64xf16>
      %9 = matmul %7, %8 : !mirage_block.stensor<1x64x64xf16>, !mirage_block.stensor<1x64x64xf16> -> !mirage_block.stensor<1x64x64xf16>
      %10 = reduction %7 dim 2 : !mirage_block.stensor<1x64x64xf16> -> !mirage_block.stensor<1x64x1xf16>
      %11 = output_saver %9 omap <x = 0, y = 2, z = 1> : !mirage_block.stensor<1x64x64xf16> -> tensor<2x256x4096xf16>
      %12 = output_saver %10 omap <x = 0, y = 2, z = 1> : !mirage_block.stensor<1x64x1xf16> -> tensor<2x256x64xf16>
      yield %11, %12 : tensor<2x256x4096xf16>, tensor<2x256x64xf16>
    }
    %1 = mirage_kernel.graph_def(%arg3 = %0#0 : tensor<2x256x4096xf16>, %arg4 = %0#1 : tensor<2x256x64xf16>) -> tensor<2x256x64xf16> grid [2, 256, 1] block [128, 1, 1] forloop 1 {
      %2 = input_loader %arg3 imap <x = 0, y = 1> : tensor<2x256x4096xf16> -> !mirage_block.stensor<1x1x4096xf16>
      %3 = input_loader %arg4 imap <x = 0, y = 1> : tensor<2x256x64xf16> -> !mirage_block.stensor<1x1x64xf16>
      %4 = reduction %2 dim 2 size 64 : !mirage_block.stensor<1x1x4096xf16> -> !mirage_block.stensor<1x1x64xf16>
      %5 = reduction %3 dim 2 : !mirage_block.stensor<1x1x64xf16> -> !mirage_block.stensor<1x1x1xf16>
      %6 = div %4, %5 : !mirage_block.stensor<1x1x64xf16>, !mirage_block.stensor<1x1x1xf16> -> !mirage_block.stensor<1x1x64xf16>
      %7 = output_saver %6 omap <x = 0, y = 1> : !mirage_block.stensor<1x1x64xf16> -> tensor<2x256x64xf16>
      yield %7 : tensor<2x256x64xf16>
    }
    return %1 : tensor<2x256x64xf16>
  }
  func.func @qknorm_gqa_bs1_as_written(%arg0: tensor<2x256x64xf16>, %arg1: tensor<2x64x4096xf16>, %arg2: tensor<2x4096x64xf16>) -> tensor<2x256x64xf16> attributes {mirage.tuning = {candidate = -1 : i64, compiler = "0.6.0+g8875a5bc9e7e", key = "a259769b0accaf97bb5c069ff670ca921e50face0e339f711fa52be4f602d513"}} {
    %0 = mirage_kernel.rms_norm %arg0 size 64 : tensor<2x256x64xf16>
    %1 = mirage_kernel.rms_norm %arg2 size 64 : tensor<2x4096x64xf16>
    %2 = mirage_kernel.matmul %0, %arg1 : tensor<2x256x64xf16>, tensor<2x64x4096xf16> -> tensor<2x256x4096xf16>
    %3 = mirage_kernel.exp %2 : tensor<2x256x4096xf16>
    %4 = mirage_kernel.reduction %3 dim 2 : tensor<2x256x4096xf16> -> tensor<2x256x1xf16>
    %5 = mirage_kernel.div %3, %4 : tensor<2x256x4096xf16>, tensor<2x256x1xf16> -> tensor<2x256x4096xf16>
    %6 = mirage_kernel.matmul %5, %1 : tensor<2x256x4096xf16>, tensor<2x4096x64xf16> -> tensor<2x256x64xf16>
    return %6 : tensor<2x256x64xf16>
  }
  func.func @qknorm_gqa_bs1_candidate_0(%arg0: tensor<2x256x64xf16>, %arg1: tensor<2x64x4096xf16>, %arg2: tensor<2x4096x64xf16>) -> tensor<2x256x64xf16> attributes {mirage.estimated_us = 22.935636610169489 : f64, mirage.global_bytes = 21168128 : i64, mirage.tuning = {candidate = 0 : i64, compiler = "0.6.0+g8875a5bc9e7e", key = "a259769b0accaf97bb5c069ff670ca921e50face0e339f711fa52be4f602d513"}} {
    %0:2 = mirage_kernel.graph_def(%arg3 = %arg0 : tensor<2x256x64xf16>, %arg4 = %arg1 : tensor<2x64x4096xf16>, %arg5 = %arg2 : tensor<2x4096x64xf16>) -> (tensor<2x256x4096xf16>, tensor<2x256x64xf16>) grid [2, 64, 4] block [128, 1, 1] forloop 1 {
      %2 = input_loader %arg3 imap <x = 0, z = 1> : tensor<2x256x64xf16> -> !mirage_block.stensor<1x64x64xf16>
      %3 = input_loader %arg4 imap <x = 0, y = 2> : tensor<2x64x4096xf16> -> !mirage_block.stensor<1x64x64xf16>
      %4 = input_loader %arg5 imap <x = 0, y = 1> : tensor<2x4096x64xf16> -> !mirage_block.stensor<1x64x64xf16>
      %5 = rms_norm %2 size 64 : !mirage_block.stensor<1x64x64xf16>
      %6 = matmul %5, %3 : !mirage_block.stensor<1x64x64xf16>, !mirage_block.stensor<1x64x64xf16> -> !mirage_block.stensor<1x64x64xf16>
      %7 = exp %6 : !mirage_block.stensor<1x64x64xf16>
      %8 = rms_norm %4 size 64 : !mirage_block.stensor<1x64x64xf16>
      %9 = matmul %7, %8 : !mirage_block.stensor<1x64x64xf16>, !mirage_block.stensor<1x64x64xf16> -> !mirage_block.stensor<1x64x64xf16>
      %10 = reduction %7 dim 2 : !mirage_block.stensor<1x64x64xf16> -> !mirage_block.stensor<1x64x1xf16>
      %11 = output_saver %9 omap <x = 0, y = 2, z = 1> : !mirage_block.stensor<1x64x64xf16> -> tensor<2x256x4096xf16>
      %12 = output_saver %10 omap <x = 0, y = 2, z = 1> : !mirage_block.stensor<1x64x1xf16> -> tensor<2x256x64xf16>
      yield %11, %12 : tensor<2x256x4096xf16>, tensor<2x256x64xf16>
    }
    %1 = mirage_kernel.graph_def(%arg3 = %0#0 : tensor<2x256x4096xf16>, %arg4 = %0#1 : tensor<2x256x64xf16>) -> tensor<2x256x64xf16> grid [2, 256, 1] block [128, 1, 1] forloop 1 {
      %2 = input_loader %arg3 imap <x = 0, y = 1> : tensor<2x256x4096xf16> -> !mirage_block.stensor<1x1x4096xf16>
      %3 = input_loader %arg4 imap <x = 0, y = 1> : tensor<2x256x64xf16> -> !mirage_block.stensor<1x1x64xf16>
      %4 = reduction %2 dim 2 size 64 : !mirage_block.stensor<1x1x4096xf16> -> !mirage_block.stensor<1x1x64xf16>
      %5 = reduction %3 dim 2 : !mirage_block.stensor<1x1x64xf16> -> !mirage_block.stensor<1x1x1xf16>
      %6 = div %4, %5 : !mirage_block.stensor<1x1x64xf16>, !mirage_block.stensor<1x1x1xf16> -> !mirage_block.stensor<1x1x64xf16>
      %7 = output_saver %6 omap <x = 0, y = 1> : !mirage_block.stensor<1x1x64xf16> -> tensor<2x256x64xf16>
      yield %7 : tensor<2x256x64xf16>
    }
    return %1 : tensor<2x256x64xf16>
  }
}

