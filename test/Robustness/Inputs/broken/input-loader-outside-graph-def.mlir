// input_loader directly in a func
func.func @f(%x: tensor<64x64xf32>) {
  %t = mirage_block.input_loader %x imap <> : tensor<64x64xf32> -> !mirage_block.stensor<64x64xf32>
  return
}