// generic graph_def operand is an i32
func.func @f(%x: i32) {
  %o = "mirage_kernel.graph_def"(%x) <{grid = array<i32: 1, 1, 1>, block = array<i32: 32, 1, 1>, forloop = 1 : i64}> ({
  ^bb0(%X: i32):
    "mirage_block.yield"() : () -> ()
  }) : (i32) -> tensor<4xf32>
  return
}