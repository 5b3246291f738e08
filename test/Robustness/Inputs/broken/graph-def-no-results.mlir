// graph_def with no results
func.func @f(%x: tensor<64x64xf32>) {
  mirage_kernel.graph_def(%X = %x : tensor<64x64xf32>) -> () grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    %t = input_loader %X imap <> : tensor<64x64xf32> -> !mirage_block.stensor<64x64xf32>
    "mirage_block.yield"() : () -> ()
  }
  return
}