// RMSNorm before a gated MLP's gate and up projections, in one kernel: the
// norm's row scale accumulates through the for-loop (rms_last) beside the
// two matmuls' sums, and divides them after it. That body holds three
// accumulators; the budget is two (max accumulators) and one rms_last
// besides them. No kernel prefix and no cut here, so the whole search must
// find it. With the norm's eps (as models write it), rms_last carries the
// same eps.
// RUN: mirage-opt %s --mirage-superoptimize='kernel-prefixes=false cuts=false grid-sizes=8 forloop-ranges=4' 2>&1 | FileCheck %s

// CHECK: remark: superoptimized: {{.*}} {{[1-9][0-9]*}} of {{[0-9]+}} verified
// CHECK-LABEL: func.func @norm_gated
// CHECK-NOT: mirage_kernel.rms_norm
// CHECK: mirage_kernel.graph_def
// CHECK-SAME: grid [8, 1, 1] {{.*}} forloop 4
// CHECK-DAG: forloop_accum %{{.*}} sum : !mirage_block.stensor<1x64xf16>
// CHECK-DAG: forloop_accum %{{.*}} sum : !mirage_block.stensor<1x64xf16>
// CHECK-DAG: forloop_accum %{{.*}} rms_last : !mirage_block.stensor<1x64xf16> -> !mirage_block.stensor<1x1xf16>
// CHECK: output_saver
// CHECK-NOT: mirage_kernel.graph_def
// CHECK: return
func.func @norm_gated(%X: tensor<1x256xf16>, %W1: tensor<256x512xf16>, %W2: tensor<256x512xf16>) -> tensor<1x512xf16> {
  %N = mirage_kernel.rms_norm %X size 256 : tensor<1x256xf16>
  %G = mirage_kernel.matmul %N, %W1 : tensor<1x256xf16>, tensor<256x512xf16> -> tensor<1x512xf16>
  %A = mirage_kernel.silu %G : tensor<1x512xf16>
  %U = mirage_kernel.matmul %N, %W2 : tensor<1x256xf16>, tensor<256x512xf16> -> tensor<1x512xf16>
  %H = mirage_kernel.mul %A, %U : tensor<1x512xf16>, tensor<1x512xf16> -> tensor<1x512xf16>
  return %H : tensor<1x512xf16>
}

// CHECK-LABEL: func.func @norm_gated_eps
// CHECK-NOT: mirage_kernel.rms_norm
// CHECK: mirage_kernel.graph_def
// CHECK-DAG: forloop_accum %{{.*}} rms_last eps 9.99999997E-7 : !mirage_block.stensor<1x64xf16> -> !mirage_block.stensor<1x1xf16>
// CHECK-NOT: mirage_kernel.graph_def
// CHECK: return
func.func @norm_gated_eps(%X: tensor<1x256xf16>, %W1: tensor<256x512xf16>, %W2: tensor<256x512xf16>) -> tensor<1x512xf16> {
  %N = mirage_kernel.rms_norm %X size 256 eps 1.0e-6 : tensor<1x256xf16>
  %G = mirage_kernel.matmul %N, %W1 : tensor<1x256xf16>, tensor<256x512xf16> -> tensor<1x512xf16>
  %A = mirage_kernel.silu %G : tensor<1x512xf16>
  %U = mirage_kernel.matmul %N, %W2 : tensor<1x256xf16>, tensor<256x512xf16> -> tensor<1x512xf16>
  %H = mirage_kernel.mul %A, %U : tensor<1x512xf16>, tensor<1x512xf16> -> tensor<1x512xf16>
  return %H : tensor<1x512xf16>
}
