// chunk into 4 parts with 2 results
func.func @f(%a: tensor<8x64xf16>) {
  %0:2 = mirage_kernel.chunk %a dim 1 parts 4 : tensor<8x64xf16> -> tensor<8x16xf16>, tensor<8x16xf16>
  return
}
