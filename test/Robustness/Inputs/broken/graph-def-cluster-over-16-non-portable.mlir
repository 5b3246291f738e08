// cluster [8, 4, 1] = 32 blocks, over 16 even with non_portable_cluster
func.func @f(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<64x64xf32>) -> tensor<64x64xf32>
      grid [8, 4, 1] block [128, 1, 1] forloop 1 cluster [8, 4, 1] attributes {non_portable_cluster} {
    %t = input_loader %X imap <x = 0, y = 1> : tensor<64x64xf32> -> !mirage_block.stensor<8x16xf32>
    %s = output_saver %t omap <x = 0, y = 1> : !mirage_block.stensor<8x16xf32> -> tensor<64x64xf32>
    yield %s : tensor<64x64xf32>
  }
  return %o : tensor<64x64xf32>
}
