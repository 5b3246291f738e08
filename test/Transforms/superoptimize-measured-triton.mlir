// A winner measured as Triton (a version 3 tuning database). With
// triton-winners=true (the Python API, which runs Triton modules) the pass
// takes the winner's µGraph as for a PTX winner, verified again, and marks
// the function `mirage.backend = "triton"` (docs/Runtime.md, "Triton
// measurements"); by default it takes the entry's fastest PTX form, which a
// bundle holds, and marks nothing.
// Inputs/tuning-database-triton.json is Inputs/tuning-database.json with
// both winners' Triton forms measured fastest: @scaled_exp's candidate 1
// (1.5 us; its PTX 2.5 us) and @rmsnorm_linear's program as written (3.0 us;
// its PTX 4.0 us).
// RUN: sed 's/@COMPILER@/%mirage_compiler_version/' %S/Inputs/tuning-database-triton.json > %t.db
// RUN: mirage-opt %s --mirage-superoptimize='tuning-db=%t.db forloop-ranges=1 triton-winners=true' -o %t.mlir 2>&1 | FileCheck %s --check-prefix=MEASURED
// RUN: FileCheck %s < %t.mlir
// RUN: mirage-opt %s --mirage-superoptimize='tuning-db=%t.db forloop-ranges=1' -o %t.ptx.mlir 2>&1 | FileCheck %s --check-prefix=PTX
// RUN: FileCheck %s --check-prefix=UNMARKED < %t.ptx.mlir
//
// A measurement with a backend in a version 2 file is refused, naming it;
// the cost model decides.
// RUN: sed 's/"version": 3/"version": 2/' %t.db > %t.v2.db
// RUN: mirage-opt %s --mirage-superoptimize='tuning-db=%t.v2.db forloop-ranges=1 triton-winners=true' -o %t.v2.mlir 2>&1 | FileCheck %s --check-prefix=OLD
// RUN: FileCheck %s --check-prefix=UNMARKED < %t.v2.mlir

// MEASURED: remark: superoptimized, measured winner (candidate 1 of its tuning group, as Triton): 1.5 us on NVIDIA H100 80GB HBM3
// MEASURED: remark: left as written, measured fastest as Triton: 3.0 us on NVIDIA H100 80GB HBM3

// CHECK-LABEL: func.func @scaled_exp(
// CHECK-SAME: attributes {mirage.backend = "triton"}
// CHECK: mirage_kernel.graph_def
// CHECK: thread_graph
// CHECK-LABEL: func.func @rmsnorm_linear(
// CHECK-SAME: attributes {mirage.backend = "triton"}
// CHECK-NEXT: mirage_kernel.rms_norm

// PTX: remark: superoptimized, measured winner (candidate 1 of its tuning group): 2.5 us on NVIDIA H100 80GB HBM3
// PTX: remark: left as written, measured fastest: 4.0 us on NVIDIA H100 80GB HBM3

// OLD: warning: tuning database {{.*}}.v2.db: entries[1].measurements[{{[0-9]+}}].backend: a backend is recorded from version 3 on; left as it is: {{.*}}; the cost model decides

// UNMARKED-NOT: mirage.backend

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
