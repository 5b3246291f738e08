// mirage_thread ops work on f16/bf16/f32 scalars only
func.func @f(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<64x64xf32>) -> tensor<64x64xf32>
      grid [4, 1, 1] block [128, 1, 1] forloop 1 {
    %t = input_loader %X imap <x = 0> : tensor<64x64xf32> -> !mirage_block.stensor<16x64xf32>
    %u = thread_graph %t : !mirage_block.stensor<16x64xf32> -> !mirage_block.stensor<16x64xf32> {
    ^bb0(%p: f32):
      %c = "arith.fptosi"(%p) : (f32) -> i32
      %q = exp %c : i32
      yield %p : f32
    }
    %s = output_saver %u omap <x = 0> : !mirage_block.stensor<16x64xf32> -> tensor<64x64xf32>
    yield %s : tensor<64x64xf32>
  }
  return %o : tensor<64x64xf32>
}
