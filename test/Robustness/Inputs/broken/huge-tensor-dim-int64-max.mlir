// dim 2^63-1 split over 2 blocks
func.func @f(%x: tensor<9223372036854775807x4xf32>) -> tensor<9223372036854775806x4xf32> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<9223372036854775807x4xf32>) -> tensor<9223372036854775806x4xf32>
      grid [2, 1, 1] block [128, 1, 1] forloop 1 {
    %t = input_loader %X imap <x = 0> : tensor<9223372036854775807x4xf32> -> !mirage_block.stensor<4611686018427387903x4xf32>
    %s = output_saver %t omap <x = 0> : !mirage_block.stensor<4611686018427387903x4xf32> -> tensor<9223372036854775806x4xf32>
    yield %s : tensor<9223372036854775806x4xf32>
  }
  return %o : tensor<9223372036854775806x4xf32>
}
