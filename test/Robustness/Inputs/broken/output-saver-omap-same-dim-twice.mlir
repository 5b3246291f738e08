// omap maps x and y to dim 0
func.func @f(%x: tensor<64x64xf32>) -> tensor<128x32xf32> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<64x64xf32>) -> tensor<128x32xf32>
      grid [4, 2, 1] block [128, 1, 1] forloop 1 {
    %t = input_loader %X imap <x = 0, y = 1> : tensor<64x64xf32> -> !mirage_block.stensor<16x32xf32>
    %s = output_saver %t omap <x = 0, y = 0> : !mirage_block.stensor<16x32xf32> -> tensor<128x32xf32>
    yield %s : tensor<128x32xf32>
  }
  return %o : tensor<128x32xf32>
}
