// sum_last_to 0
func.func @f(%a: tensor<16x256xf32>) -> tensor<16x1xf32> {
  %o = mirage_kernel.graph_def(%A = %a : tensor<16x256xf32>) -> tensor<16x1xf32>
      grid [1, 1, 1] block [128, 1, 1] forloop 4 {
    %at = input_loader %A imap <> fmap 1 : tensor<16x256xf32> -> !mirage_block.stensor<16x64xf32>
    %acc = forloop_accum %at sum_last_to 0 : !mirage_block.stensor<16x64xf32> -> !mirage_block.stensor<16x1xf32>
    %out = output_saver %acc omap <> : !mirage_block.stensor<16x1xf32> -> tensor<16x1xf32>
    yield %out : tensor<16x1xf32>
  }
  return %o : tensor<16x1xf32>
}
