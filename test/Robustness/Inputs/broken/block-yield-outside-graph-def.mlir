// mirage_block.yield as a func terminator
func.func @f(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  mirage_block.yield %x : tensor<64x64xf32>
}