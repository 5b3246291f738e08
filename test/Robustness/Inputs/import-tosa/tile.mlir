// A tile.
func.func @f(%x: tensor<8x16xf32>) -> tensor<16x16xf32> {
  %m = tosa.const_shape {values = dense<[2, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %r = tosa.tile %x, %m : (tensor<8x16xf32>, !tosa.shape<2>) -> tensor<16x16xf32>
  return %r : tensor<16x16xf32>
}
