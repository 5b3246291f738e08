// input ends inside an imap
func.func @f(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<64x64xf32>) -> tensor<64x64xf32>
      grid [4, 1, 1] block [128, 1, 1] forloop 1 {
    %t = input_loader %X imap <x =