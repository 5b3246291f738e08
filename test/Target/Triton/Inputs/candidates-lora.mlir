module {
  func.func @lora(%arg0: tensor<16x256xf16>, %arg1: tensor<256x4096xf16>, %arg2: tensor<256x16xf16>, %arg3: tensor<16x4096xf16>) -> tensor<16x4096xf16> {
    %0 = mirage_kernel.graph_def(%arg4 = %arg0 : tensor<16x256xf16>, %arg5 = %arg1 : tensor<256x4096xf16>, %arg6 = %arg2 : tensor<256x16xf16>, %arg7 = %arg3 : tensor<16x4096xf16>) -> tensor<16x4096xf16> grid [128, 1, 1] block [128, 1, 1] forloop 2 {
      %1 = input_loader %arg4 imap <> fmap 1 : tensor<16x256xf16> -> !mirage_block.stensor<16x128xf16>
      %2 = input_loader %arg5 imap <x = 1> fmap 0 : tensor<256x4096xf16> -> !mirage_block.stensor<128x32xf16>
      %3 = input_loader %arg6 imap <> fmap 0 : tensor<256x16xf16> -> !mirage_block.stensor<128x16xf16>
      %4 = input_loader %arg7 imap <x = 1> : tensor<16x4096xf16> -> !mirage_block.stensor<16x32xf16>
      %5 = matmul %1, %2 : !mirage_block.stensor<16x128xf16>, !mirage_block.stensor<128x32xf16> -> !mirage_block.stensor<16x32xf16>
      %6 = matmul %1, %3 : !mirage_block.stensor<16x128xf16>, !mirage_block.stensor<128x16xf16> -> !mirage_block.stensor<16x16xf16>
      %7 = forloop_accum %5 sum : !mirage_block.stensor<16x32xf16> -> !mirage_block.stensor<16x32xf16>
      %8 = forloop_accum %6 sum : !mirage_block.stensor<16x16xf16> -> !mirage_block.stensor<16x16xf16>
      %9 = matmul %8, %4 : !mirage_block.stensor<16x16xf16>, !mirage_block.stensor<16x32xf16> -> !mirage_block.stensor<16x32xf16>
      %10 = add %7, %9 : !mirage_block.stensor<16x32xf16>, !mirage_block.stensor<16x32xf16> -> !mirage_block.stensor<16x32xf16>
      %11 = output_saver %10 omap <x = 1> : !mirage_block.stensor<16x32xf16> -> tensor<16x4096xf16>
      yield %11 : tensor<16x4096xf16>
    }
    return %0 : tensor<16x4096xf16>
  }
  func.func @lora_as_written(%arg0: tensor<16x256xf16>, %arg1: tensor<256x4096xf16>, %arg2: tensor<256x16xf16>, %arg3: tensor<16x4096xf16>) -> tensor<16x4096xf16> attributes {mirage.tuning = {candidate = -1 : i64, compiler = "0.6.0+g8875a5bc9e7e", key = "c9abd59c842a8192b247063c74edd478234de6465c9da8fd9e978873de67ac72"}} {
    %0 = mirage_kernel.matmul %arg0, %arg1 : tensor<16x256xf16>, tensor<256x4096xf16> -> tensor<16x4096xf16>
    %1 = mirage_kernel.matmul %arg0, %arg2 : tensor<16x256xf16>, tensor<256x16xf16> -> tensor<16x16xf16>
    %2 = mirage_kernel.matmul %1, %arg3 : tensor<16x16xf16>, tensor<16x4096xf16> -> tensor<16x4096xf16>
    %3 = mirage_kernel.add %0, %2 : tensor<16x4096xf16>, tensor<16x4096xf16> -> tensor<16x4096xf16>
    return %3 : tensor<16x4096xf16>
  }
  func.func @lora_candidate_0(%arg0: tensor<16x256xf16>, %arg1: tensor<256x4096xf16>, %arg2: tensor<256x16xf16>, %arg3: tensor<16x4096xf16>) -> tensor<16x4096xf16> attributes {mirage.estimated_us = 5.9078684745762704 : f64, mirage.global_bytes = 4456448 : i64, mirage.tuning = {candidate = 0 : i64, compiler = "0.6.0+g8875a5bc9e7e", key = "c9abd59c842a8192b247063c74edd478234de6465c9da8fd9e978873de67ac72"}} {
    %0 = mirage_kernel.graph_def(%arg4 = %arg0 : tensor<16x256xf16>, %arg5 = %arg1 : tensor<256x4096xf16>, %arg6 = %arg2 : tensor<256x16xf16>, %arg7 = %arg3 : tensor<16x4096xf16>) -> tensor<16x4096xf16> grid [128, 1, 1] block [128, 1, 1] forloop 2 {
      %1 = input_loader %arg4 imap <> fmap 1 : tensor<16x256xf16> -> !mirage_block.stensor<16x128xf16>
      %2 = input_loader %arg5 imap <x = 1> fmap 0 : tensor<256x4096xf16> -> !mirage_block.stensor<128x32xf16>
      %3 = input_loader %arg6 imap <> fmap 0 : tensor<256x16xf16> -> !mirage_block.stensor<128x16xf16>
      %4 = input_loader %arg7 imap <x = 1> : tensor<16x4096xf16> -> !mirage_block.stensor<16x32xf16>
      %5 = matmul %1, %2 : !mirage_block.stensor<16x128xf16>, !mirage_block.stensor<128x32xf16> -> !mirage_block.stensor<16x32xf16>
      %6 = matmul %1, %3 : !mirage_block.stensor<16x128xf16>, !mirage_block.stensor<128x16xf16> -> !mirage_block.stensor<16x16xf16>
      %7 = forloop_accum %5 sum : !mirage_block.stensor<16x32xf16> -> !mirage_block.stensor<16x32xf16>
      %8 = forloop_accum %6 sum : !mirage_block.stensor<16x16xf16> -> !mirage_block.stensor<16x16xf16>
      %9 = matmul %8, %4 : !mirage_block.stensor<16x16xf16>, !mirage_block.stensor<16x32xf16> -> !mirage_block.stensor<16x32xf16>
      %10 = add %7, %9 : !mirage_block.stensor<16x32xf16>, !mirage_block.stensor<16x32xf16> -> !mirage_block.stensor<16x32xf16>
      %11 = output_saver %10 omap <x = 1> : !mirage_block.stensor<16x32xf16> -> tensor<16x4096xf16>
      yield %11 : tensor<16x4096xf16>
    }
    return %0 : tensor<16x4096xf16>
  }
}

