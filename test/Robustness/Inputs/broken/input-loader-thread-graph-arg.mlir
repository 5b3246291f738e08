// generic input_loader inside a thread_graph reading its scalar argument
func.func @f(%a: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %o = mirage_kernel.graph_def(%A = %a : tensor<16x64xf32>) -> tensor<16x64xf32>
      grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    %at = input_loader %A imap <> : tensor<16x64xf32> -> !mirage_block.stensor<16x64xf32>

    %u = "mirage_block.thread_graph"(%at) ({
    ^bb0(%p: f32):
      %l = "mirage_block.input_loader"(%p) <{imap = #mirage_block.map<>}> : (f32) -> !mirage_block.stensor<1xf32>
      "mirage_thread.yield"(%p) : (f32) -> ()
    }) : (!mirage_block.stensor<16x64xf32>) -> !mirage_block.stensor<16x64xf32>
    %out = output_saver %u omap <> : !mirage_block.stensor<16x64xf32> -> tensor<16x64xf32>
    yield %out : tensor<16x64xf32>
  }
  return %o : tensor<16x64xf32>
}
