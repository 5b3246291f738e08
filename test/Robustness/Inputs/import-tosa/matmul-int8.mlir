// An int8 matmul.
func.func @f(%a: tensor<1x8x64xi8>, %b: tensor<1x64x32xi8>) -> tensor<1x8x32xi32> {
  %z = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %r = tosa.matmul %a, %b, %z, %z : (tensor<1x8x64xi8>, tensor<1x64x32xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x8x32xi32>
  return %r : tensor<1x8x32xi32>
}
