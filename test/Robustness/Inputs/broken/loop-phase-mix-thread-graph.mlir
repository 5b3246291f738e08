// a thread_graph over a per-iteration and an accumulated tile
func.func @f(%a: tensor<16x256xf32>, %b: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %o = mirage_kernel.graph_def(%A = %a : tensor<16x256xf32>, %B = %b : tensor<16x64xf32>) -> tensor<16x64xf32>
      grid [1, 1, 1] block [128, 1, 1] forloop 4 {
    %at = input_loader %A imap <> fmap 1 : tensor<16x256xf32> -> !mirage_block.stensor<16x64xf32>
    %acc = forloop_accum %at sum : !mirage_block.stensor<16x64xf32> -> !mirage_block.stensor<16x64xf32>
    %bad = thread_graph %at, %acc : !mirage_block.stensor<16x64xf32>, !mirage_block.stensor<16x64xf32> -> !mirage_block.stensor<16x64xf32> {
    ^bb0(%p: f32, %q: f32):
      %z = add %p, %q : f32
      yield %z : f32
    }
    %out = output_saver %acc omap <> : !mirage_block.stensor<16x64xf32> -> tensor<16x64xf32>
    yield %out : tensor<16x64xf32>
  }
  return %o : tensor<16x64xf32>
}
