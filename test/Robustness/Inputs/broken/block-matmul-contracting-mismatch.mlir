// tile matmul 16x64 by 32x64
func.func @f(%a: tensor<16x64xf32>, %b: tensor<32x64xf32>) -> tensor<16x64xf32> {
  %o = mirage_kernel.graph_def(%A = %a : tensor<16x64xf32>, %B = %b : tensor<32x64xf32>) -> tensor<16x64xf32>
      grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    %at = input_loader %A imap <> : tensor<16x64xf32> -> !mirage_block.stensor<16x64xf32>
    %bt = input_loader %B imap <> : tensor<32x64xf32> -> !mirage_block.stensor<32x64xf32>
    %m = matmul %at, %bt : !mirage_block.stensor<16x64xf32>, !mirage_block.stensor<32x64xf32> -> !mirage_block.stensor<16x64xf32>
    %out = output_saver %m omap <> : !mirage_block.stensor<16x64xf32> -> tensor<16x64xf32>
    yield %out : tensor<16x64xf32>
  }
  return %o : tensor<16x64xf32>
}
