// tile concat result should be 32x64
func.func @f(%a: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %o = mirage_kernel.graph_def(%A = %a : tensor<16x64xf32>) -> tensor<16x64xf32>
      grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    %at = input_loader %A imap <> : tensor<16x64xf32> -> !mirage_block.stensor<16x64xf32>
    %c = concat %at, %at dim 0 : !mirage_block.stensor<16x64xf32>, !mirage_block.stensor<16x64xf32> -> !mirage_block.stensor<16x128xf32>
    %out = output_saver %at omap <> : !mirage_block.stensor<16x64xf32> -> tensor<16x64xf32>
    yield %out : tensor<16x64xf32>
  }
  return %o : tensor<16x64xf32>
}
