// A tensor of 2^40 elements: evaluating it would allocate 16 TiB of field
// values (the passes died of llvm::report_bad_alloc_error).
func.func @ref(%x: tensor<1099511627776xf16>) -> tensor<1099511627776xf16> {
  %e = mirage_kernel.exp %x : tensor<1099511627776xf16>
  return %e : tensor<1099511627776xf16>
}
func.func @candidate(%x: tensor<1099511627776xf16>) -> tensor<1099511627776xf16> {
  %n = mirage_kernel.neg %x : tensor<1099511627776xf16>
  %m = mirage_kernel.neg %n : tensor<1099511627776xf16>
  %e = mirage_kernel.exp %m : tensor<1099511627776xf16>
  return %e : tensor<1099511627776xf16>
}
