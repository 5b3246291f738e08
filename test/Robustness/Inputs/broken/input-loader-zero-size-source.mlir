// loading a tensor with a zero dim would give a zero-dim tile
func.func @f(%src: tensor<0x4xf32>) -> tensor<1x4xf32> {
  %o = mirage_kernel.graph_def(%S = %src : tensor<0x4xf32>) -> tensor<1x4xf32>
      grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    %t = input_loader %S imap <> : tensor<0x4xf32> -> !mirage_block.stensor<1x4xf32>
    %s = output_saver %t omap <> : !mirage_block.stensor<1x4xf32> -> tensor<1x4xf32>
    yield %s : tensor<1x4xf32>
  }
  return %o : tensor<1x4xf32>
}
