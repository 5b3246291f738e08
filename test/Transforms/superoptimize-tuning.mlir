// With emit-candidates, the program as written and the candidates form one
// tuning group: the same key and compiler, candidate -1 for the program as
// written; functions the pass added are not searched again.
// RUN: mirage-opt %s --mirage-superoptimize='forloop-ranges=1 max-candidates=2 emit-candidates=true' -o %t.mlir 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s < %t.mlir
// The bundle carries the group into plan.json.
// RUN: rm -rf %t.bundle && mirage-bundle %t.mlir -o %t.bundle
// RUN: %python -c "import json, sys; [print(f['name'], f['tuning']['candidate'], f['tuning']['key'] == sys.argv[1], 'reference' in f) for f in json.load(open(sys.argv[2] + '/plan.json'))['functions'] if 'tuning' in f]" "$(grep -o 'key = "[0-9a-f]*"' %t.mlir | head -1 | cut -d'"' -f2)" %t.bundle | FileCheck %s --check-prefix=PLAN

// REMARK-COUNT-1: remark: superoptimized
// REMARK-NOT: remark

// CHECK-LABEL: func.func @rmsnorm_linear(
// CHECK-LABEL: func.func @rmsnorm_linear_as_written(
// CHECK-SAME: mirage.tuning = {candidate = -1 : i64, compiler = "[[COMPILER:[^"]+]]", key = "[[KEY:[0-9a-f]{64}]]"}
// CHECK: mirage_kernel.rms_norm
// CHECK: mirage_kernel.matmul
// CHECK-LABEL: func.func @rmsnorm_linear_candidate_0(
// CHECK-SAME: mirage.tuning = {candidate = 0 : i64, compiler = "[[COMPILER]]", key = "[[KEY]]"}
// CHECK: mirage_kernel.graph_def
// CHECK-LABEL: func.func @rmsnorm_linear_candidate_1(
// CHECK-SAME: mirage.tuning = {candidate = 1 : i64, compiler = "[[COMPILER]]", key = "[[KEY]]"}

// PLAN: rmsnorm_linear_as_written -1 True True
// PLAN-NEXT: rmsnorm_linear_candidate_0 0 True True
// PLAN-NEXT: rmsnorm_linear_candidate_1 1 True True
func.func @rmsnorm_linear(%x: tensor<2x64xf16>, %w: tensor<64x32xf16>) -> tensor<2x32xf16> {
  %n = mirage_kernel.rms_norm %x size 64 : tensor<2x64xf16>
  %o = mirage_kernel.matmul %n, %w : tensor<2x64xf16>, tensor<64x32xf16> -> tensor<2x32xf16>
  return %o : tensor<2x32xf16>
}
