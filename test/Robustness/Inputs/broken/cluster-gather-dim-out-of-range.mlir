// gather dim 2 of a rank-2 tile
func.func @f(%x: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<64x256xf32>) -> tensor<64x256xf32>
      grid [4, 1, 1] block [128, 1, 1] forloop 1 cluster [4, 1, 1] {
    %t = input_loader %X imap <x = 1> : tensor<64x256xf32> -> !mirage_block.stensor<64x64xf32>
    %g = cluster_gather %t dim 2 : !mirage_block.stensor<64x64xf32> -> !mirage_block.stensor<64x256xf32>
    %s = output_saver %t omap <x = 1> : !mirage_block.stensor<64x64xf32> -> tensor<64x256xf32>
    yield %s : tensor<64x256xf32>
  }
  return %o : tensor<64x256xf32>
}
