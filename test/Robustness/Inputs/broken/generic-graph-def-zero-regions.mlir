// generic graph_def with no region
func.func @f(%x: tensor<64x64xf32>) {
  %o = "mirage_kernel.graph_def"(%x) <{grid = array<i32: 4, 1, 1>, block = array<i32: 128, 1, 1>, forloop = 1 : i64}>  : (tensor<64x64xf32>) -> tensor<64x64xf32>
  return
}
