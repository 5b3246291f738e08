// mirage-superoptimize with clusters=true (docs/Search.md, "Clusters"): on
// sm_90a the search also spreads a norm's rows over thread-block clusters,
// each block squaring and summing its part, cluster_reduce adding the parts
// and each block scaling its own. Off by default, and never on sm_80; a
// bundle holding such a candidate targets sm_90a alone.
// RUN: mirage-opt %s --mirage-superoptimize='emit-candidates=true clusters=true max-candidates=64 time-limit=20' -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: mirage-opt %t.mlir --mirage-check-equivalence -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQUIV
// RUN: mirage-bundle %t.mlir -o %t.bundle
// RUN: FileCheck %s --check-prefix=BUNDLE --input-file=%t.bundle/plan.json
// RUN: mirage-opt %s --mirage-superoptimize='emit-candidates=true max-candidates=64 time-limit=20' -o - | FileCheck %s --check-prefix=NONE
// RUN: mirage-opt %s --mirage-superoptimize='emit-candidates=true clusters=true chip=sm_80 max-candidates=64 time-limit=20' -o - | FileCheck %s --check-prefix=NONE

// CHECK-LABEL: func.func @rmsnorm_4096_as_written
// CHECK: mirage_kernel.graph_def{{.*}} cluster [{{[248]}}, 1, 1] {
// CHECK: square
// CHECK: reduction
// CHECK: cluster_reduce
// CHECK: div

// EQUIV-NOT: not equivalent
// EQUIV: equivalent

// BUNDLE: "ptx": {
// BUNDLE-NEXT: "sm_90a": "sm_90a.ptx"
// BUNDLE-NEXT: }

// NONE-NOT: cluster [

func.func @rmsnorm_4096(%H: tensor<8x4096xf16>) -> tensor<8x4096xf16> {
  %O = mirage_kernel.rms_norm %H size 4096 : tensor<8x4096xf16>
  return %O : tensor<8x4096xf16>
}
