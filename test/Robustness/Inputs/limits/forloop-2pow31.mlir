// One block, 2^31 - 1 loop iterations over a 4-element tile: small
// tensors, hours of evaluation. The time limit stops it.
func.func @ref(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = mirage_kernel.mul_scalar %x by 2147483647.0 : tensor<4xf32>
  return %e : tensor<4xf32>
}
func.func @candidate(%x: tensor<4xf32>) -> tensor<4xf32> {
  %o = mirage_kernel.graph_def(%xg = %x : tensor<4xf32>) -> tensor<4xf32>
      grid [1, 1, 1] block [128, 1, 1] forloop 2147483647 {
    %t = input_loader %xg imap <> : tensor<4xf32> -> !mirage_block.stensor<4xf32>
    %a = forloop_accum %t sum : !mirage_block.stensor<4xf32> -> !mirage_block.stensor<4xf32>
    %s = output_saver %a omap <> : !mirage_block.stensor<4xf32> -> tensor<4xf32>
    yield %s : tensor<4xf32>
  }
  return %o : tensor<4xf32>
}
