// A winner measured faster without programmatic dependent launch (a version
// 4 tuning database: "overlap": false on the winner and its measurement).
// The pass takes it as any winner and marks the function
// `mirage.overlap = false`; mirage-bundle writes that into plan.json as
// "overlap": false, and the runtime then launches its kernels one after the
// other (docs/Runtime.md, "Overlap"). Inputs/tuning-database.json, with
// @scaled_exp's candidate 1 and @rmsnorm_linear's program as written so
// measured.
// RUN: sed -e 's/@COMPILER@/%mirage_compiler_version/' -e 's/"version": 1/"version": 4/' \
// RUN:   -e 's/"candidate": 1,/"candidate": 1, "overlap": false,/' \
// RUN:   -e '/"rmsnorm_linear_as_written"/{n;s/"candidate": -1,/"candidate": -1, "overlap": false,/}' \
// RUN:   %S/Inputs/tuning-database.json > %t.db
// RUN: mirage-opt %s --mirage-superoptimize='tuning-db=%t.db forloop-ranges=1' -o %t.mlir 2>&1 | FileCheck %s --check-prefix=MEASURED
// RUN: FileCheck %s < %t.mlir
// RUN: mirage-bundle %t.mlir -o %t.bundle
// RUN: FileCheck %s --check-prefix=PLAN < %t.bundle/plan.json
//
// The same winners measured with the overlap (the database before version
// 4 says nothing of it): no mark, and plan.json keeps the default.
// RUN: sed 's/@COMPILER@/%mirage_compiler_version/' %S/Inputs/tuning-database.json > %t.v1.db
// RUN: mirage-opt %s --mirage-superoptimize='tuning-db=%t.v1.db forloop-ranges=1' -o %t.v1.mlir 2>&1 | FileCheck %s --check-prefix=OVERLAP
// RUN: FileCheck %s --check-prefix=UNMARKED < %t.v1.mlir
// RUN: mirage-bundle %t.v1.mlir -o %t.v1.bundle
// RUN: FileCheck %s --check-prefix=UNMARKED < %t.v1.bundle/plan.json
//
// An overlap in a version 3 file is refused, naming it; the cost model
// decides.
// RUN: sed 's/"version": 4/"version": 3/' %t.db > %t.v3.db
// RUN: mirage-opt %s --mirage-superoptimize='tuning-db=%t.v3.db forloop-ranges=1' -o %t.v3.mlir 2>&1 | FileCheck %s --check-prefix=OLD
// RUN: FileCheck %s --check-prefix=UNMARKED < %t.v3.mlir

// MEASURED: remark: superoptimized, measured winner (candidate 1 of its tuning group, without overlap): 2.5 us on NVIDIA H100 80GB HBM3
// MEASURED: remark: left as written, measured fastest, without overlap: 4.0 us on NVIDIA H100 80GB HBM3

// CHECK-LABEL: func.func @scaled_exp(
// CHECK-SAME: attributes {mirage.overlap = false}
// CHECK: mirage_kernel.graph_def
// CHECK-LABEL: func.func @rmsnorm_linear(
// CHECK-SAME: attributes {mirage.overlap = false}
// CHECK-NEXT: mirage_kernel.rms_norm

// PLAN: "name": "scaled_exp",
// PLAN: "overlap": false
// PLAN: "name": "rmsnorm_linear",
// PLAN: "overlap": false

// OVERLAP: remark: superoptimized, measured winner (candidate 1 of its tuning group): 2.5 us
// OVERLAP: remark: left as written, measured fastest: 4.0 us

// OLD: warning: tuning database {{.*}}.v3.db: entries[{{[0-9]+}}].{{.*}}overlap: an overlap is recorded from version 4 on; left as it is: {{.*}}; the cost model decides

// UNMARKED-NOT: overlap

func.func @scaled_exp(%x: tensor<8x64xf16>, %y: tensor<8x64xf16>) -> tensor<8x64xf16> {
  %s = mirage_kernel.mul_scalar %x by 0.5 : tensor<8x64xf16>
  %e = mirage_kernel.exp %s : tensor<8x64xf16>
  %o = mirage_kernel.add %e, %y : tensor<8x64xf16>, tensor<8x64xf16> -> tensor<8x64xf16>
  return %o : tensor<8x64xf16>
}

func.func @rmsnorm_linear(%x: tensor<2x64xf16>, %w: tensor<64x32xf16>) -> tensor<2x32xf16> {
  %n = mirage_kernel.rms_norm %x size 64 : tensor<2x64xf16>
  %o = mirage_kernel.matmul %n, %w : tensor<2x64xf16>, tensor<64x32xf16> -> tensor<2x32xf16>
  return %o : tensor<2x32xf16>
}
