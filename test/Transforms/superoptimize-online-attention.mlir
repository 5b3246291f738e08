// Decode attention as models write it, searched with for-loops in the first
// kernel: the stabilised candidates keep a running maximum (a forloop_accum
// max that the sub before exp reads in the loop), FlashDecoding's form. The
// space is small and covered completely, with no time limit.
// RUN: mirage-opt %s --mirage-superoptimize='forloop-ranges=4 grid-sizes=2,4,8 time-limit=0 emit-candidates=true max-candidates=2 kernel-prefixes=false' 2>&1 | FileCheck %s
// With the default options, the candidates that run Q·K as a library matmul
// compete too (the best one at these sizes fuses the rest into one kernel);
// whichever wins, its for-loop keeps a running maximum.
// RUN: mirage-opt %s --mirage-superoptimize='forloop-ranges=4 grid-sizes=2,4,8 time-limit=0 emit-candidates=true max-candidates=2' 2>&1 | FileCheck %s --check-prefix=ANY

// CHECK: remark: superoptimized: {{.*}}candidates stabilised (online softmax)
// CHECK-LABEL: func.func @attention_candidate_0
// CHECK: mirage_kernel.graph_def
// CHECK-SAME: forloop 4 {
// CHECK: %[[S:.*]] = mul_scalar
// CHECK: %[[R:.*]] = reduction_max %[[S]] dim 2
// CHECK: %[[M:.*]] = forloop_accum %[[R]] max
// CHECK: sub %[[S]], %[[M]]
// CHECK: exp
// CHECK: output_saver %[[M]]

// ANY: remark: superoptimized: {{.*}}candidates stabilised (online softmax)
// ANY-LABEL: func.func @attention_candidate_0
// ANY: mirage_kernel.graph_def
// ANY-SAME: forloop 4 {
// ANY: %[[R:.*]] = reduction_max
// ANY: %[[M:.*]] = forloop_accum %[[R]] max
// ANY: sub %{{.*}}, %[[M]]
// ANY-NEXT: exp
func.func @attention(%Q: tensor<4x4x64xf16>, %K: tensor<4x64x2048xf16>, %V: tensor<4x2048x64xf16>) -> tensor<4x4x64xf16> {
  %S = mirage_kernel.matmul %Q, %K : tensor<4x4x64xf16>, tensor<4x64x2048xf16> -> tensor<4x4x2048xf16>
  %T = mirage_kernel.mul_scalar %S by 0.125 : tensor<4x4x2048xf16>
  %M = mirage_kernel.reduction_max %T dim 2 : tensor<4x4x2048xf16> -> tensor<4x4x1xf16>
  %D = mirage_kernel.sub %T, %M : tensor<4x4x2048xf16>, tensor<4x4x1xf16> -> tensor<4x4x2048xf16>
  %E = mirage_kernel.exp %D : tensor<4x4x2048xf16>
  %R = mirage_kernel.reduction %E dim 2 : tensor<4x4x2048xf16> -> tensor<4x4x1xf16>
  %P = mirage_kernel.div %E, %R : tensor<4x4x2048xf16>, tensor<4x4x1xf16> -> tensor<4x4x2048xf16>
  %O = mirage_kernel.matmul %P, %V : tensor<4x4x2048xf16>, tensor<4x2048x64xf16> -> tensor<4x4x64xf16>
  return %O : tensor<4x4x64xf16>
}
