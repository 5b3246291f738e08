// saving a 2^62-row tile from 2 blocks: 2^63 wraps to the dynamic-size sentinel
func.func @f(%x: tensor<4611686018427387904xf32>) -> tensor<8xf32> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<4611686018427387904xf32>) -> tensor<8xf32>
      grid [2, 1, 1] block [128, 1, 1] forloop 1 {
    %t = input_loader %X imap <> : tensor<4611686018427387904xf32> -> !mirage_block.stensor<4611686018427387904xf32>
    %s = output_saver %t omap <x = 0> : !mirage_block.stensor<4611686018427387904xf32> -> tensor<8xf32>
    yield %s : tensor<8xf32>
  }
  return %o : tensor<8xf32>
}
