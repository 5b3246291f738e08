// With emit-candidates, a candidate whose staged tiles the TMA unit copies
// on the target chip is followed by its cp.async variant (the graph_def
// marked async_copies), for the tuner to measure both; on sm_80, which has
// no TMA, there is none.
// RUN: mirage-opt %s --mirage-superoptimize='emit-candidates=true max-candidates=2 forloop-ranges=16 time-limit=20' -o %t.sm90.mlir
// RUN: FileCheck %s --check-prefix=SM90 < %t.sm90.mlir
// RUN: mirage-opt %s --mirage-superoptimize='emit-candidates=true max-candidates=2 forloop-ranges=16 time-limit=20 chip=sm_80' -o %t.sm80.mlir
// RUN: FileCheck %s --check-prefix=SM80 < %t.sm80.mlir

// SM90-LABEL: func.func @norm_linear_candidate_0(
// SM90: grid [[GRID:\[[0-9, ]+\]]] block [[BLOCK:\[[0-9, ]+\]]] forloop [[LOOP:[0-9]+]] {
// SM90-LABEL: func.func @norm_linear_candidate_1(
// SM90: grid [[GRID]] block [[BLOCK]] forloop [[LOOP]] async_copies {
// SM80-NOT: async_copies
func.func @norm_linear(%x: tensor<4x1024xf16>, %w: tensor<1024x1024xf16>) -> tensor<4x1024xf16> {
  %n = mirage_kernel.rms_norm %x size 1024 : tensor<4x1024xf16>
  %o = mirage_kernel.matmul %n, %w : tensor<4x1024xf16>, tensor<1024x1024xf16> -> tensor<4x1024xf16>
  return %o : tensor<4x1024xf16>
}
