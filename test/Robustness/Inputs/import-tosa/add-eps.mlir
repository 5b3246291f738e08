// Adding a constant eps (RMSNorm with eps).
func.func @f(%x: tensor<8x1xf32>) -> tensor<8x1xf32> {
  %eps = "tosa.const"() {values = dense<1.0e-6> : tensor<1x1xf32>} : () -> tensor<1x1xf32>
  %r = tosa.add %x, %eps : (tensor<8x1xf32>, tensor<1x1xf32>) -> tensor<8x1xf32>
  return %r : tensor<8x1xf32>
}
