// cluster_reduce_scatter in generic form without its dim attribute
func.func @f(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<64x64xf32>) -> tensor<64x64xf32>
      grid [4, 1, 1] block [128, 1, 1] forloop 1 cluster [4, 1, 1] {
    %t = input_loader %X imap <x = 1> : tensor<64x64xf32> -> !mirage_block.stensor<64x16xf32>
    %s = "mirage_block.cluster_reduce_scatter"(%t) : (!mirage_block.stensor<64x16xf32>) -> !mirage_block.stensor<16x16xf32>
    %o2 = output_saver %s omap <x = 0> : !mirage_block.stensor<16x16xf32> -> tensor<64x64xf32>
    yield %o2 : tensor<64x64xf32>
  }
  return %o : tensor<64x64xf32>
}
