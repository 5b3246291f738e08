module {
  func.func @gated_mlp(%arg0: tensor<8x4096xf16>, %arg1: tensor<4096x4096xf16>, %arg2: tensor<4096x4096xf16>) -> tensor<8x4096xf16> {
    %0 = mirage_kernel.graph_def(%arg3 = %arg0 : tensor<8x4096xf16>, %arg4 = %arg1 : tensor<4096x4096xf16>, %arg5 = %arg2 : tensor<4096x4096xf16>) -> tensor<8x4096xf16> grid [128, 1, 1] block [128, 1, 1] forloop 16 {
      %1 = input_loader %arg3 imap <> fmap 1 : tensor<8x4096xf16> -> !mirage_block.stensor<8x256xf16>
      %2 = input_loader %arg4 imap <x = 1> fmap 0 : tensor<4096x4096xf16> -> !mirage_block.stensor<256x32xf16>
      %3 = input_loader %arg5 imap <x = 1> fmap 0 : tensor<4096x4096xf16> -> !mirage_block.stensor<256x32xf16>
      %4 = matmul %1, %2 : !mirage_block.stensor<8x256xf16>, !mirage_block.stensor<256x32xf16> -> !mirage_block.stensor<8x32xf16>
      %5 = matmul %1, %3 : !mirage_block.stensor<8x256xf16>, !mirage_block.stensor<256x32xf16> -> !mirage_block.stensor<8x32xf16>
      %6 = forloop_accum %4 sum : !mirage_block.stensor<8x32xf16> -> !mirage_block.stensor<8x32xf16>
      %7 = forloop_accum %5 sum : !mirage_block.stensor<8x32xf16> -> !mirage_block.stensor<8x32xf16>
      %8 = thread_graph %6, %7 : !mirage_block.stensor<8x32xf16>, !mirage_block.stensor<8x32xf16> -> !mirage_block.stensor<8x32xf16> {
      ^bb0(%arg6: f16, %arg7: f16):
        %10 = silu %arg6 : f16
        %11 = mul %10, %arg7 : f16
        yield %11 : f16
      }
      %9 = output_saver %8 omap <x = 1> : !mirage_block.stensor<8x32xf16> -> tensor<8x4096xf16>
      yield %9 : tensor<8x4096xf16>
    }
    return %0 : tensor<8x4096xf16>
  }
  func.func @gated_mlp_as_written(%arg0: tensor<8x4096xf16>, %arg1: tensor<4096x4096xf16>, %arg2: tensor<4096x4096xf16>) -> tensor<8x4096xf16> attributes {mirage.tuning = {candidate = -1 : i64, compiler = "0.6.0+g8875a5bc9e7e", key = "42af5f87f54f947d06558f4339f2117da9219aef91bf9276783f458cbc716fd2"}} {
    %0 = mirage_kernel.matmul %arg0, %arg1 : tensor<8x4096xf16>, tensor<4096x4096xf16> -> tensor<8x4096xf16>
    %1 = mirage_kernel.silu %0 : tensor<8x4096xf16>
    %2 = mirage_kernel.matmul %arg0, %arg2 : tensor<8x4096xf16>, tensor<4096x4096xf16> -> tensor<8x4096xf16>
    %3 = mirage_kernel.mul %1, %2 : tensor<8x4096xf16>, tensor<8x4096xf16> -> tensor<8x4096xf16>
    return %3 : tensor<8x4096xf16>
  }
  func.func @gated_mlp_candidate_0(%arg0: tensor<8x4096xf16>, %arg1: tensor<4096x4096xf16>, %arg2: tensor<4096x4096xf16>) -> tensor<8x4096xf16> attributes {mirage.estimated_us = 30.765034576271184 : f64, mirage.global_bytes = 75563008 : i64, mirage.tuning = {candidate = 0 : i64, compiler = "0.6.0+g8875a5bc9e7e", key = "42af5f87f54f947d06558f4339f2117da9219aef91bf9276783f458cbc716fd2"}} {
    %0 = mirage_kernel.graph_def(%arg3 = %arg0 : tensor<8x4096xf16>, %arg4 = %arg1 : tensor<4096x4096xf16>, %arg5 = %arg2 : tensor<4096x4096xf16>) -> tensor<8x4096xf16> grid [128, 1, 1] block [128, 1, 1] forloop 16 {
      %1 = input_loader %arg3 imap <> fmap 1 : tensor<8x4096xf16> -> !mirage_block.stensor<8x256xf16>
      %2 = input_loader %arg4 imap <x = 1> fmap 0 : tensor<4096x4096xf16> -> !mirage_block.stensor<256x32xf16>
      %3 = input_loader %arg5 imap <x = 1> fmap 0 : tensor<4096x4096xf16> -> !mirage_block.stensor<256x32xf16>
      %4 = matmul %1, %2 : !mirage_block.stensor<8x256xf16>, !mirage_block.stensor<256x32xf16> -> !mirage_block.stensor<8x32xf16>
      %5 = matmul %1, %3 : !mirage_block.stensor<8x256xf16>, !mirage_block.stensor<256x32xf16> -> !mirage_block.stensor<8x32xf16>
      %6 = forloop_accum %4 sum : !mirage_block.stensor<8x32xf16> -> !mirage_block.stensor<8x32xf16>
      %7 = forloop_accum %5 sum : !mirage_block.stensor<8x32xf16> -> !mirage_block.stensor<8x32xf16>
      %8 = thread_graph %6, %7 : !mirage_block.stensor<8x32xf16>, !mirage_block.stensor<8x32xf16> -> !mirage_block.stensor<8x32xf16> {
      ^bb0(%arg6: f16, %arg7: f16):
        %10 = silu %arg6 : f16
        %11 = mul %10, %arg7 : f16
        yield %11 : f16
      }
      %9 = output_saver %8 omap <x = 1> : !mirage_block.stensor<8x32xf16> -> tensor<8x4096xf16>
      yield %9 : tensor<8x4096xf16>
    }
    return %0 : tensor<8x4096xf16>
  }
}

