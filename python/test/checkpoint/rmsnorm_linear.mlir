// The reference of the committed checkpoint next to it, which
//   mirage-opt rmsnorm_linear.mlir -o /dev/null --mirage-superoptimize='S checkpoint=rmsnorm_linear.checkpoint.json'
// wrote, S being SEARCH of python/test/test_checkpoint.py.
func.func @rmsnorm_linear(%x: tensor<2x64xf16>, %w: tensor<64x32xf16>) -> tensor<2x32xf16> {
  %n = mirage_kernel.rms_norm %x size 64 : tensor<2x64xf16>
  %o = mirage_kernel.matmul %n, %w : tensor<2x64xf16>, tensor<64x32xf16> -> tensor<2x32xf16>
  return %o : tensor<2x32xf16>
}
