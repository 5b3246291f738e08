// kernel tensors must be ranked
func.func @f(%x: tensor<*xf16>) -> tensor<*xf16> {
  %0 = mirage_kernel.exp %x : tensor<*xf16>
  return %0 : tensor<*xf16>
}