// Input of bundle.test and errors.test.
func.func @softmax_rows(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %e = mirage_kernel.exp %x : tensor<8x64xf32>
  %s = mirage_kernel.reduction %e dim 1 : tensor<8x64xf32> -> tensor<8x1xf32>
  %p = mirage_kernel.div %e, %s : tensor<8x64xf32>, tensor<8x1xf32> -> tensor<8x64xf32>
  return %p : tensor<8x64xf32>
}
