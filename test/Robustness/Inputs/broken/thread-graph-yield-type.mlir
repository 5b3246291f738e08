// thread_graph yields an f16 element for an f32 result
func.func @f(%a: tensor<16x64xf32>, %b: tensor<16x64xf16>) -> tensor<16x64xf32> {
  %o = mirage_kernel.graph_def(%A = %a : tensor<16x64xf32>, %B = %b : tensor<16x64xf16>) -> tensor<16x64xf32>
      grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    %at = input_loader %A imap <> : tensor<16x64xf32> -> !mirage_block.stensor<16x64xf32>
    %bt = input_loader %B imap <> : tensor<16x64xf16> -> !mirage_block.stensor<16x64xf16>
    %u = thread_graph %bt : !mirage_block.stensor<16x64xf16> -> !mirage_block.stensor<16x64xf32> {
    ^bb0(%p: f16):
      yield %p : f16
    }
    %out = output_saver %u omap <> : !mirage_block.stensor<16x64xf32> -> tensor<16x64xf32>
    yield %out : tensor<16x64xf32>
  }
  return %o : tensor<16x64xf32>
}
