// With emit-candidates, a candidate whose staged tiles the TMA unit copies
// on the target chip is followed by its cp.async variant (the graph_def
// marked async_copies), for the tuner to measure both; on sm_80, which has
// no TMA, there is none.
// RUN: mirage-opt %s --mirage-superoptimize='emit-candidates=true max-candidates=2 forloop-ranges=16 time-limit=20' -o %t.sm90.mlir
// RUN: FileCheck %s --check-prefix=SM90 < %t.sm90.mlir
// RUN: mirage-opt %s --mirage-superoptimize='emit-candidates=true max-candidates=2 forloop-ranges=16 time-limit=20 chip=sm_80' -o %t.sm80.mlir
// RUN: FileCheck %s --check-prefix=SM80 < %t.sm80.mlir
// copy-variants=false leaves them out on sm_90a too.
// RUN: mirage-opt %s --mirage-superoptimize='emit-candidates=true max-candidates=2 forloop-ranges=16 time-limit=20 copy-variants=false' -o - | FileCheck %s --check-prefix=SM80
// A winner measured as its cp.async variant comes back from the tuning
// database so: the database's program JSON keeps the mark.
// RUN: sed 's/@COMPILER@/%mirage_compiler_version/' %S/Inputs/tuning-database-async-copies.json > %t.db
// RUN: mirage-opt %s --mirage-superoptimize='tuning-db=%t.db forloop-ranges=16 time-limit=20' --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=MEASURED

// SM90-LABEL: func.func @norm_linear_candidate_0(
// SM90: grid [[GRID:\[[0-9, ]+\]]] block [[BLOCK:\[[0-9, ]+\]]] forloop [[LOOP:[0-9]+]] {
// SM90-LABEL: func.func @norm_linear_candidate_1(
// SM90: grid [[GRID]] block [[BLOCK]] forloop [[LOOP]] async_copies {
// The candidates are there, none of them a copy variant.
// SM80-NOT: async_copies
// SM80: func.func @norm_linear_candidate_1(
// SM80-NOT: async_copies
// MEASURED: remark: superoptimized, measured winner (candidate 1 of its tuning group): 3.5 us on NVIDIA H200
// MEASURED: func.func @norm_linear(
// MEASURED: forloop 16 async_copies {
func.func @norm_linear(%x: tensor<4x1024xf16>, %w: tensor<1024x1024xf16>) -> tensor<4x1024xf16> {
  %n = mirage_kernel.rms_norm %x size 1024 : tensor<4x1024xf16>
  %o = mirage_kernel.matmul %n, %w : tensor<4x1024xf16>, tensor<1024x1024xf16> -> tensor<4x1024xf16>
  return %o : tensor<4x1024xf16>
}
