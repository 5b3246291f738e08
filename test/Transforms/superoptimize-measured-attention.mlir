// The second mirage-superoptimize of a tuned program, at a benchmark's full
// size: gqa_bs8 (examples/benchmarks/gqa_bs8.mlir) with the entry mirage-tune
// wrote for it on an H200 (bench/results/189c7b9-tuning.json; the compiler
// version is filled in here). The winner, a split-KV µGraph of two
// graph_defs, is verified again before it replaces the body, and nothing is
// searched: checked on one head and one query row (docs/Verification.md,
// "Reduced sizes"), this takes about 0.4 s on a 2-core machine (64 s at
// full size); the timeout only guards against a search.
// RUN: sed 's/@COMPILER@/%mirage_compiler_version/' %S/Inputs/tuning-database-gqa-bs8.json > %t.db
// RUN: timeout 60 mirage-opt %s --mirage-superoptimize='tuning-db=%t.db' -o %t.mlir 2>&1 | FileCheck %s --check-prefix=MEASURED
// RUN: FileCheck %s < %t.mlir

// MEASURED: remark: superoptimized, measured winner (candidate 0 of its tuning group): 50.0 us on NVIDIA H200 (2026-11-27T02:13:48Z; tuning database '{{.*}}.db')

// CHECK-LABEL: func.func @gqa_bs8
// CHECK: mirage_kernel.graph_def
// CHECK-SAME: grid [16, 32, 2]
// CHECK: mirage_kernel.graph_def
// CHECK-SAME: grid [16, 32, 1]
// CHECK-NOT: mirage_kernel.matmul
func.func @gqa_bs8(%Q: tensor<16x256x64xf16>, %K: tensor<16x64x4096xf16>, %V: tensor<16x4096x64xf16>) -> tensor<16x256x64xf16> {
  %S = mirage_kernel.matmul %Q, %K : tensor<16x256x64xf16>, tensor<16x64x4096xf16> -> tensor<16x256x4096xf16>
  %E = mirage_kernel.exp %S : tensor<16x256x4096xf16>
  %R = mirage_kernel.reduction %E dim 2 : tensor<16x256x4096xf16> -> tensor<16x256x1xf16>
  %P = mirage_kernel.div %E, %R : tensor<16x256x4096xf16>, tensor<16x256x1xf16> -> tensor<16x256x4096xf16>
  %O = mirage_kernel.matmul %P, %V : tensor<16x256x4096xf16>, tensor<16x4096x64xf16> -> tensor<16x256x64xf16>
  return %O : tensor<16x256x64xf16>
}
