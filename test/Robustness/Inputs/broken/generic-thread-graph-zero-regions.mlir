// generic thread_graph without its region
func.func @f(%a: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %o = mirage_kernel.graph_def(%A = %a : tensor<16x64xf32>) -> tensor<16x64xf32>
      grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    %at = input_loader %A imap <> : tensor<16x64xf32> -> !mirage_block.stensor<16x64xf32>
    %u = "mirage_block.thread_graph"(%at) : (!mirage_block.stensor<16x64xf32>) -> !mirage_block.stensor<16x64xf32>
    %out = output_saver %u omap <> : !mirage_block.stensor<16x64xf32> -> tensor<16x64xf32>
    yield %out : tensor<16x64xf32>
  }
  return %o : tensor<16x64xf32>
}
