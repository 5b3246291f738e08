// a graph_def inside a graph_def
func.func @f(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<64x64xf32>) -> tensor<64x64xf32>
      grid [4, 1, 1] block [128, 1, 1] forloop 1 {
    %t = input_loader %X imap <x = 0> : tensor<64x64xf32> -> !mirage_block.stensor<16x64xf32>
    %n = "mirage_kernel.graph_def"(%X) <{grid = array<i32: 1, 1, 1>, block = array<i32: 32, 1, 1>, forloop = 1 : i64}> ({
    ^bb0(%Y: tensor<64x64xf32>):
      %l = "mirage_block.input_loader"(%Y) <{imap = #mirage_block.map<>}> : (tensor<64x64xf32>) -> !mirage_block.stensor<64x64xf32>
      %w = "mirage_block.output_saver"(%l) <{omap = #mirage_block.map<>}> : (!mirage_block.stensor<64x64xf32>) -> tensor<64x64xf32>
      "mirage_block.yield"(%w) : (tensor<64x64xf32>) -> ()
    }) : (tensor<64x64xf32>) -> tensor<64x64xf32>
    %s = output_saver %t omap <x = 0> : !mirage_block.stensor<16x64xf32> -> tensor<64x64xf32>
    yield %s : tensor<64x64xf32>
  }
  return %o : tensor<64x64xf32>
}
