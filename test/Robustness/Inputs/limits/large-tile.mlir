// The reference holds at most 64 elements per tensor; the candidate's
// graph_def computes a 64x64 tile (an outer product) and a 64x64 kernel
// tensor: refused under max-elements=1024, equivalent without it.
func.func @ref(%a: tensor<64x1xf32>, %b: tensor<1x64xf32>) -> tensor<64x1xf32> {
  %s = mirage_kernel.reduction %b dim 1 : tensor<1x64xf32> -> tensor<1x1xf32>
  %o = mirage_kernel.mul %a, %s : tensor<64x1xf32>, tensor<1x1xf32> -> tensor<64x1xf32>
  return %o : tensor<64x1xf32>
}
func.func @outer_tile(%a: tensor<64x1xf32>, %b: tensor<1x64xf32>) -> tensor<64x1xf32> {
  %o = mirage_kernel.graph_def(%ag = %a : tensor<64x1xf32>, %bg = %b : tensor<1x64xf32>) -> tensor<64x1xf32>
      grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    %at = input_loader %ag imap <> : tensor<64x1xf32> -> !mirage_block.stensor<64x1xf32>
    %bt = input_loader %bg imap <> : tensor<1x64xf32> -> !mirage_block.stensor<1x64xf32>
    %p = matmul %at, %bt : !mirage_block.stensor<64x1xf32>, !mirage_block.stensor<1x64xf32> -> !mirage_block.stensor<64x64xf32>
    %r = reduction %p dim 1 : !mirage_block.stensor<64x64xf32> -> !mirage_block.stensor<64x1xf32>
    %s = output_saver %r omap <> : !mirage_block.stensor<64x1xf32> -> tensor<64x1xf32>
    yield %s : tensor<64x1xf32>
  }
  return %o : tensor<64x1xf32>
}
func.func @outer_tensor(%a: tensor<64x1xf32>, %b: tensor<1x64xf32>) -> tensor<64x1xf32> {
  %p = mirage_kernel.matmul %a, %b : tensor<64x1xf32>, tensor<1x64xf32> -> tensor<64x64xf32>
  %r = mirage_kernel.reduction %p dim 1 : tensor<64x64xf32> -> tensor<64x1xf32>
  return %r : tensor<64x1xf32>
}
