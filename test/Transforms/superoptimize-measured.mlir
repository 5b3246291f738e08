// Measured selection without a GPU: mirage-superoptimize takes the winner
// that mirage-tune recorded in the tuning database for the program's key,
// this compiler version and the chip's compute capability, verified again,
// and searches nothing. Inputs/tuning-database.json was written for these
// two programs (the compiler version is filled in here): @scaled_exp's
// winner is candidate 1, a graph_def with a thread graph (the newest of two
// entries), @rmsnorm_linear's the program as written.
// RUN: sed 's/@COMPILER@/%mirage_compiler_version/' %S/Inputs/tuning-database.json > %t.db
// RUN: mirage-opt %s --mirage-superoptimize='tuning-db=%t.db forloop-ranges=1' -o %t.mlir 2>&1 | FileCheck %s --check-prefix=MEASURED
// RUN: FileCheck %s < %t.mlir
// The database's default location ($MIRAGE_TUNING_DB) gives the same.
// RUN: env MIRAGE_TUNING_DB=%t.db mirage-opt %s --mirage-superoptimize='forloop-ranges=1' -o /dev/null 2>&1 | FileCheck %s --check-prefix=MEASURED
// The winner is equivalent to the program, checked independently.
// RUN: sed -n '/func.func @scaled_exp(/,/^}/p' %s > %t.measured.mlir
// RUN: sed -n '/func.func @scaled_exp(/,/^  }/p' %t.mlir | sed 's/@scaled_exp(/@measured(/' >> %t.measured.mlir
// RUN: mirage-opt %t.measured.mlir --mirage-check-equivalence -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQUIV
//
// No entry for the chip, or for this compiler version: the cost model decides.
// RUN: mirage-opt %s --mirage-superoptimize='tuning-db=%t.db chip=sm_80 forloop-ranges=1' -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOENTRY -DCHIP=sm_80
// RUN: mirage-opt %s --mirage-superoptimize='tuning-db=%S/Inputs/tuning-database.json forloop-ranges=1' -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOENTRY -DCHIP=sm_90a
// RUN: mirage-opt %s --mirage-superoptimize='tuning-db=%t.missing.db forloop-ranges=1' -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOENTRY -DCHIP=sm_90a
// RUN: mirage-opt %s --mirage-superoptimize='tuning-db=%t.db use-tuning-db=false forloop-ranges=1' -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNUSED
//
// A winner changed in the file fails verification and is ignored; a
// database that cannot be read is a warning, and nothing is written to it.
// RUN: sed 's/"value": 0.5/"value": 0.25/' %t.db > %t.tampered.db
// RUN: mirage-opt %s --mirage-superoptimize='tuning-db=%t.tampered.db forloop-ranges=1' -o %t.tampered.mlir 2>&1 | FileCheck %s --check-prefix=TAMPERED
// RUN: FileCheck %s --check-prefix=UNCHANGED < %t.tampered.mlir
// RUN: head -c 200 %t.db > %t.truncated.db && cp %t.truncated.db %t.truncated.copy
// RUN: mirage-opt %s --mirage-superoptimize='tuning-db=%t.truncated.db forloop-ranges=1' -o /dev/null 2>&1 | FileCheck %s --check-prefix=CORRUPT
// RUN: cmp %t.truncated.db %t.truncated.copy

// MEASURED: remark: superoptimized, measured winner (candidate 1 of its tuning group): 2.5 us on NVIDIA H100 80GB HBM3 (2026-11-26T12:00:00Z; tuning database '{{.*}}')
// MEASURED: remark: left as written, measured fastest: 4.0 us on NVIDIA H100 80GB HBM3 (2026-11-26T12:00:00Z; tuning database '{{.*}}')
// MEASURED-NOT: configurations

// CHECK-LABEL: func.func @scaled_exp(
// CHECK: mirage_kernel.graph_def
// CHECK-SAME: grid [8, 1, 1]
// CHECK: thread_graph
// CHECK-NEXT: ^bb0
// CHECK-NEXT: mul_scalar {{.*}} by 5.000000e-01 : f16
// CHECK-NEXT: exp
// CHECK-NEXT: add
// CHECK-LABEL: func.func @rmsnorm_linear(
// CHECK-NEXT: mirage_kernel.rms_norm
// CHECK-NEXT: mirage_kernel.matmul

// EQUIV: remark: is equivalent to @scaled_exp

// NOENTRY: remark: {{.*}} configurations, {{.*}}; no measurement for [[CHIP]] in the tuning database '{{.*}}': the cost model chose
// NOENTRY: remark: {{.*}} configurations, {{.*}}; no measurement for [[CHIP]] in the tuning database '{{.*}}': the cost model chose

// UNUSED-NOT: tuning database
// UNUSED: configurations
// UNUSED-NOT: tuning database

// TAMPERED: warning: tuning database '{{.*}}' records a winner for 'scaled_exp' that fails verification (the file was changed); ignored it
// TAMPERED: remark: {{.*}} configurations, {{.*}}; the tuning database's winner failed verification: the cost model chose
// TAMPERED: remark: left as written, measured fastest
// The search's own choice, not the tampered winner (grid [8, 1, 1]).
// UNCHANGED-LABEL: func.func @scaled_exp(
// UNCHANGED-NOT: grid [8, 1, 1]
// UNCHANGED: mirage_kernel.graph_def

// CORRUPT: warning: tuning database {{.*}}.truncated.db: line {{[0-9]+}}, column {{[0-9]+}}: {{.*}}; the cost model decides
// CORRUPT: remark: {{.*}}; the tuning database could not be read: the cost model chose

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
