// thread_graph yields 2 values for 1 result
func.func @f(%a: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %o = mirage_kernel.graph_def(%A = %a : tensor<16x64xf32>) -> tensor<16x64xf32>
      grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    %at = input_loader %A imap <> : tensor<16x64xf32> -> !mirage_block.stensor<16x64xf32>

    %u = thread_graph %at : !mirage_block.stensor<16x64xf32> -> !mirage_block.stensor<16x64xf32> {
    ^bb0(%p: f32):
      %z = exp %p : f32
      yield %z, %p : f32, f32
    }
    %out = output_saver %u omap <> : !mirage_block.stensor<16x64xf32> -> tensor<16x64xf32>
    yield %out : tensor<16x64xf32>
  }
  return %o : tensor<16x64xf32>
}
