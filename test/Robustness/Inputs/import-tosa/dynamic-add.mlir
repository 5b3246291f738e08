// A dynamic shape.
func.func @f(%x: tensor<?x16xf32>, %y: tensor<?x16xf32>) -> tensor<?x16xf32> {
  %r = tosa.add %x, %y : (tensor<?x16xf32>, tensor<?x16xf32>) -> tensor<?x16xf32>
  return %r : tensor<?x16xf32>
}
