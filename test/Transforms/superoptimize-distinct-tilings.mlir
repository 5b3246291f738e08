// The best K candidates tile their work differently: of several verified
// candidates with the same grids, for-loops, threads and tile shapes (which
// differ only inside their blocks), the search keeps the cheapest, so that
// the tuner measures K different tilings. Here RMSNorm + Linear at bs8: the
// cheapest tiling (64 blocks of 96 columns, 16 iterations) has a second
// verified form, which used to be candidate 1; now candidate 1 is the next
// tiling, 32 iterations.
// RUN: mirage-opt %s --mirage-superoptimize='time-limit=60 emit-candidates=true max-candidates=2' 2>&1 | FileCheck %s

// CHECK-LABEL: func.func @rmsnorm_linear_bs8_candidate_0
// CHECK: grid [64, 1, 1] block [128, 1, 1] forloop 16
// CHECK-LABEL: func.func @rmsnorm_linear_bs8_candidate_1
// CHECK: grid [64, 1, 1] block [256, 1, 1] forloop 16
// CHECK-LABEL: func.func @rmsnorm_linear_bs8_candidate_2
// CHECK: grid [64, 1, 1] block [128, 1, 1] forloop 32
// CHECK-LABEL: func.func @rmsnorm_linear_bs8_candidate_3
// CHECK: grid [64, 1, 1] block [256, 1, 1] forloop 32
func.func @rmsnorm_linear_bs8(%X: tensor<16x4096xf16>, %W: tensor<4096x6144xf16>) -> tensor<16x6144xf16> {
  %N = mirage_kernel.rms_norm %X size 4096 : tensor<16x4096xf16>
  %O = mirage_kernel.matmul %N, %W : tensor<16x4096xf16>, tensor<4096x6144xf16> -> tensor<16x6144xf16>
  return %O : tensor<16x6144xf16>
}
