// Beside each fused candidate whose body ends in a binary elementwise op of
// two saved tiles, the search generates the same µGraph with that op at
// kernel level (the graph_def saves silu(X W1) and X W2, a kernel-level
// `mul` combines them: the public implementation's gated MLPs;
// test-reachable-hoisted.mlir). Its fused twin computes the same with one
// launch and two saved tensors less, so it is never kept: no emitted
// candidate has a graph_def of two results, although 64 were asked for.
// mirage-check-equivalence proves every emitted candidate against the
// function as written.
// RUN: mirage-opt %s --mirage-superoptimize='time-limit=0 forloop-ranges=2 grid-sizes=2 kernel-prefixes=false cuts=false max-candidates=64 emit-candidates=true use-tuning-db=false' 2>&1 | FileCheck %s
// RUN: mirage-opt %s --mirage-superoptimize='time-limit=0 forloop-ranges=2 grid-sizes=2 kernel-prefixes=false cuts=false max-candidates=64 emit-candidates=true use-tuning-db=false' 2>/dev/null | mirage-opt --mirage-check-equivalence=reference=gated_mlp_as_written 2>&1 | FileCheck %s --check-prefix=PROOF

// CHECK: remark: superoptimized: {{.*}} complete candidates, {{[1-9][0-9]*}} of {{[1-9][0-9]*}} verified
// CHECK: func.func @gated_mlp_candidate_0(
// CHECK-NOT: -> (tensor<2x32xf16>, tensor<2x32xf16>)
// PROOF: remark: is equivalent to @gated_mlp_as_written
// PROOF-NOT: is not equivalent
func.func @gated_mlp(%x: tensor<2x64xf16>, %w1: tensor<64x32xf16>, %w2: tensor<64x32xf16>) -> tensor<2x32xf16> {
  %g = mirage_kernel.matmul %x, %w1 : tensor<2x64xf16>, tensor<64x32xf16> -> tensor<2x32xf16>
  %a = mirage_kernel.silu %g : tensor<2x32xf16>
  %u = mirage_kernel.matmul %x, %w2 : tensor<2x64xf16>, tensor<64x32xf16> -> tensor<2x32xf16>
  %o = mirage_kernel.mul %a, %u : tensor<2x32xf16>, tensor<2x32xf16> -> tensor<2x32xf16>
  return %o : tensor<2x32xf16>
}
