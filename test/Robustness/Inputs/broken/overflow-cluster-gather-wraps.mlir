// gathering (2^62+1)-wide tiles over a 4-block cluster: wraps to 4
func.func @f(%x: tensor<4611686018427387905xf32>) -> tensor<16xf32> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<4611686018427387905xf32>) -> tensor<16xf32>
      grid [4, 1, 1] block [128, 1, 1] forloop 1 cluster [4, 1, 1] {
    %t = input_loader %X imap <> : tensor<4611686018427387905xf32> -> !mirage_block.stensor<4611686018427387905xf32>
    %g = cluster_gather %t dim 0 : !mirage_block.stensor<4611686018427387905xf32> -> !mirage_block.stensor<4xf32>
    %s = output_saver %g omap <x = 0> : !mirage_block.stensor<4xf32> -> tensor<16xf32>
    yield %s : tensor<16xf32>
  }
  return %o : tensor<16xf32>
}
