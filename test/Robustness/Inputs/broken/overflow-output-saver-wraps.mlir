// saving a (2^62+1)-row tile from 4 blocks: 4*(2^62+1) wraps to 4 in int64
func.func @f(%x: tensor<4611686018427387905xf32>) -> tensor<4xf32> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<4611686018427387905xf32>) -> tensor<4xf32>
      grid [4, 1, 1] block [128, 1, 1] forloop 1 {
    %t = input_loader %X imap <> : tensor<4611686018427387905xf32> -> !mirage_block.stensor<4611686018427387905xf32>
    %s = output_saver %t omap <x = 0> : !mirage_block.stensor<4611686018427387905xf32> -> tensor<4xf32>
    yield %s : tensor<4xf32>
  }
  return %o : tensor<4xf32>
}
