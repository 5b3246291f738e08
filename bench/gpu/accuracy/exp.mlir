// The exp of the code generator on every f32 input, for
// bench/gpu/accuracy/exp_accuracy.py: 64 x 4096 inputs spread over the range
// where exp(x) is a normal f32.
func.func @exp_f32(%x: tensor<64x4096xf32>) -> tensor<64x4096xf32> {
  %y = mirage_kernel.exp %x : tensor<64x4096xf32>
  return %y : tensor<64x4096xf32>
}
