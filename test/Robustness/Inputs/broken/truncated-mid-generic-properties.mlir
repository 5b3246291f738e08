// input ends inside the <{...}> properties of a generic op
func.func @f(%x: tensor<64x64xf32>) {
  %o = "mirage_kernel.graph_def"(%x) <{grid = array<i32: 4, 1