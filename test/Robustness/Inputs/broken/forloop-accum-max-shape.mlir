// max keeps the shape
func.func @f(%a: tensor<16x256xf32>) -> tensor<1x64xf32> {
  %o = mirage_kernel.graph_def(%A = %a : tensor<16x256xf32>) -> tensor<1x64xf32>
      grid [1, 1, 1] block [128, 1, 1] forloop 4 {
    %at = input_loader %A imap <> fmap 1 : tensor<16x256xf32> -> !mirage_block.stensor<16x64xf32>
    %acc = forloop_accum %at max : !mirage_block.stensor<16x64xf32> -> !mirage_block.stensor<1x64xf32>
    %out = output_saver %acc omap <> : !mirage_block.stensor<1x64xf32> -> tensor<1x64xf32>
    yield %out : tensor<1x64xf32>
  }
  return %o : tensor<1x64xf32>
}
