// linalg.pack.
func.func @f(%x: tensor<8x16xf32>) -> tensor<2x4x4x4xf32> {
  %e = tensor.empty() : tensor<2x4x4x4xf32>
  %r = linalg.pack %x inner_dims_pos = [0, 1] inner_tiles = [4, 4] into %e : tensor<8x16xf32> -> tensor<2x4x4x4xf32>
  return %r : tensor<2x4x4x4xf32>
}
