// generic graph_def with a block successor
func.func @f(%x: tensor<64x64xf32>) {
  "mirage_kernel.graph_def"(%x)[^bb1] <{grid = array<i32: 1, 1, 1>, block = array<i32: 32, 1, 1>, forloop = 1 : i64}> : (tensor<64x64xf32>) -> ()
^bb1:
  return
}