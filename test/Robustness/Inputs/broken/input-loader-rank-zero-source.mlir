// loading a rank-0 tensor would give a rank-0 tile
func.func @f(%src: tensor<f32>) -> tensor<1xf32> {
  %o = mirage_kernel.graph_def(%S = %src : tensor<f32>) -> tensor<1xf32>
      grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    %t = input_loader %S imap <> : tensor<f32> -> !mirage_block.stensor<1xf32>
    %s = output_saver %t omap <> : !mirage_block.stensor<1xf32> -> tensor<1xf32>
    yield %s : tensor<1xf32>
  }
  return %o : tensor<1xf32>
}
