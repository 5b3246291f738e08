// grid = array<i32>
func.func @f(%x: tensor<64x64xf32>) {
  %o = "mirage_kernel.graph_def"(%x) <{grid = array<i32>, block = array<i32: 128, 1, 1>, forloop = 1 : i64}> ({
^bb0(%X: tensor<64x64xf32>):
  %t = "mirage_block.input_loader"(%X) <{imap = #mirage_block.map<x = 0>}> : (tensor<64x64xf32>) -> !mirage_block.stensor<16x64xf32>
  %s = "mirage_block.output_saver"(%t) <{omap = #mirage_block.map<x = 0>}> : (!mirage_block.stensor<16x64xf32>) -> tensor<64x64xf32>
  "mirage_block.yield"(%s) : (tensor<64x64xf32>) -> ()
}) : (tensor<64x64xf32>) -> tensor<64x64xf32>
  return
}
