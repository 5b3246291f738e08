// linalg on memrefs.
func.func @f(%x: memref<8x16xf32>, %y: memref<8x16xf32>) {
  linalg.exp ins(%x : memref<8x16xf32>) outs(%y : memref<8x16xf32>)
  return
}
