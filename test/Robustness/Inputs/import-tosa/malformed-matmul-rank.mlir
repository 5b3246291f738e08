// Malformed: a matmul of rank 2.
func.func @f(%a: tensor<8x64xf16>, %b: tensor<64x32xf16>) -> tensor<8x32xf16> {
  %z = "tosa.const"() {values = dense<0.0> : tensor<1xf16>} : () -> tensor<1xf16>
  %r = tosa.matmul %a, %b, %z, %z : (tensor<8x64xf16>, tensor<64x32xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<8x32xf16>
  return %r : tensor<8x32xf16>
}
