// kernel ops take tensors, not memrefs
func.func @f(%x: memref<8x64xf16>) {
  %0 = mirage_kernel.exp %x : memref<8x64xf16>
  return
}