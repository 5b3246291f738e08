// A sum into a fill of 1.
func.func @f(%x: tensor<8x16xf32>) -> tensor<8xf32> {
  %c = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %i = linalg.fill ins(%c : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %r = linalg.reduce ins(%x : tensor<8x16xf32>) outs(%i : tensor<8xf32>) dimensions = [1]
    (%a: f32, %acc: f32) {
      %m = arith.addf %a, %acc : f32
      linalg.yield %m : f32
    }
  return %r : tensor<8xf32>
}
