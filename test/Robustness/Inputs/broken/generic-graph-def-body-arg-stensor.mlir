// generic graph_def body argument is a tile
func.func @f(%x: tensor<64x64xf32>) {
  %o = "mirage_kernel.graph_def"(%x) <{grid = array<i32: 4, 1, 1>, block = array<i32: 128, 1, 1>, forloop = 1 : i64}> ({
^bb0(%X: !mirage_block.stensor<64x64xf32>):
  "mirage_block.yield"() : () -> ()
}) : (tensor<64x64xf32>) -> tensor<64x64xf32>
  return
}
