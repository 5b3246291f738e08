// cluster_reduce_scatter of a dimension the cluster's blocks do not divide
func.func @f(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<64x64xf32>) -> tensor<64x64xf32>
      grid [4, 1, 1] block [128, 1, 1] forloop 1 cluster [4, 1, 1] {
    %t = input_loader %X imap <x = 0> : tensor<64x64xf32> -> !mirage_block.stensor<16x64xf32>
    %r = reduction %t dim 1 size 2 : !mirage_block.stensor<16x64xf32> -> !mirage_block.stensor<16x2xf32>
    %s = cluster_reduce_scatter %r dim 1 : !mirage_block.stensor<16x2xf32> -> !mirage_block.stensor<16x1xf32>
    %o2 = output_saver %s omap <x = 0> : !mirage_block.stensor<16x1xf32> -> tensor<64x64xf32>
    yield %o2 : tensor<64x64xf32>
  }
  return %o : tensor<64x64xf32>
}
