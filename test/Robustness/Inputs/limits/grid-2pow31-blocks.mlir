// A graph_def of 65536 x 32768 = 2^31 blocks, each of one element, over
// tensors of 2^31 elements.
func.func @ref(%x: tensor<65536x32768xf32>) -> tensor<65536x32768xf32> {
  %e = mirage_kernel.exp %x : tensor<65536x32768xf32>
  return %e : tensor<65536x32768xf32>
}
func.func @candidate(%x: tensor<65536x32768xf32>) -> tensor<65536x32768xf32> {
  %o = mirage_kernel.graph_def(%xg = %x : tensor<65536x32768xf32>) -> tensor<65536x32768xf32>
      grid [65536, 32768, 1] block [128, 1, 1] forloop 1 {
    %t = input_loader %xg imap <x = 0, y = 1> : tensor<65536x32768xf32> -> !mirage_block.stensor<1x1xf32>
    %e = exp %t : !mirage_block.stensor<1x1xf32>
    %s = output_saver %e omap <x = 0, y = 1> : !mirage_block.stensor<1x1xf32> -> tensor<65536x32768xf32>
    yield %s : tensor<65536x32768xf32>
  }
  return %o : tensor<65536x32768xf32>
}
