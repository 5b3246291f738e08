// tile add of 16x64 and 16x32
func.func @f(%a: tensor<16x64xf32>, %b: tensor<16x32xf32>) -> tensor<16x64xf32> {
  %o = mirage_kernel.graph_def(%A = %a : tensor<16x64xf32>, %B = %b : tensor<16x32xf32>) -> tensor<16x64xf32>
      grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    %at = input_loader %A imap <> : tensor<16x64xf32> -> !mirage_block.stensor<16x64xf32>
    %bt = input_loader %B imap <> : tensor<16x32xf32> -> !mirage_block.stensor<16x32xf32>
    %s = add %at, %bt : !mirage_block.stensor<16x64xf32>, !mirage_block.stensor<16x32xf32> -> !mirage_block.stensor<16x64xf32>
    %out = output_saver %s omap <> : !mirage_block.stensor<16x64xf32> -> tensor<16x64xf32>
    yield %out : tensor<16x64xf32>
  }
  return %o : tensor<16x64xf32>
}
