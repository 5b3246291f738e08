// kernel tensors must be statically shaped
func.func @f(%x: tensor<?x64xf16>) -> tensor<?x64xf16> {
  %0 = mirage_kernel.exp %x : tensor<?x64xf16>
  return %0 : tensor<?x64xf16>
}