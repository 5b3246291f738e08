// tile reduction size 5 does not divide 64
func.func @f(%a: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %o = mirage_kernel.graph_def(%A = %a : tensor<16x64xf32>) -> tensor<16x64xf32>
      grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    %at = input_loader %A imap <> : tensor<16x64xf32> -> !mirage_block.stensor<16x64xf32>
    %r = reduction %at dim 1 size 5 : !mirage_block.stensor<16x64xf32> -> !mirage_block.stensor<16x5xf32>
    %out = output_saver %at omap <> : !mirage_block.stensor<16x64xf32> -> tensor<16x64xf32>
    yield %out : tensor<16x64xf32>
  }
  return %o : tensor<16x64xf32>
}
