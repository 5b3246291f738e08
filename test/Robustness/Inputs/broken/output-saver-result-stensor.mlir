// output_saver producing a tile instead of a kernel tensor
func.func @f(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<64x64xf32>) -> tensor<64x64xf32>
      grid [4, 1, 1] block [128, 1, 1] forloop 1 {
    %t = input_loader %X imap <x = 0> : tensor<64x64xf32> -> !mirage_block.stensor<16x64xf32>
    %s = output_saver %t omap <x = 0> : !mirage_block.stensor<16x64xf32> -> !mirage_block.stensor<64x64xf32>
    yield %s : !mirage_block.stensor<64x64xf32>
  }
  return %o : tensor<64x64xf32>
}
