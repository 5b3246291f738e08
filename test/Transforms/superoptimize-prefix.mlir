// A reference that ends in a projection of work of its own (a gated MLP's
// down projection) is also searched without that projection: the prefix's
// candidates, each followed by the projection as a kernel matmul (a
// cuBLASLt call in a bundle), join the tuning group after the whole
// function's, and the cost model may choose one.
// RUN: mirage-opt %s --mirage-superoptimize='time-limit=30 emit-candidates=true' --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s
// Such a candidate measured fastest comes back from the tuning database with
// its kernel matmul (Inputs/tuning-database-prefix.json: @mlp_down's winner
// is candidate 2, a prefix's graph_def and the projection).
// RUN: sed 's/@COMPILER@/%mirage_compiler_version/' %S/Inputs/tuning-database-prefix.json > %t.db
// RUN: mirage-opt %s --mirage-superoptimize='tuning-db=%t.db time-limit=30' --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=MEASURED
// MEASURED: remark: superoptimized, measured winner (candidate 2 of its tuning group): 7.5 us
// MEASURED-LABEL: func.func @mlp_down(
// MEASURED: %[[H:.*]] = mirage_kernel.graph_def({{.*}}) -> tensor<1x512xf16> grid
// MEASURED: %[[O:.*]] = mirage_kernel.matmul %[[H]], %arg3 : tensor<1x512xf16>, tensor<512x256xf16> -> tensor<1x256xf16>
// MEASURED-NEXT: return %[[O]]

// CHECK: remark: superoptimized: {{.*}}; {{[1-9][0-9]*}} candidates without the final projection, which then runs as a library GEMM
// CHECK-NOT: remark: {{.*}}without the final projection
// CHECK-LABEL: func.func @mlp_down(
// CHECK-LABEL: func.func @mlp_down_as_written(
// The whole function's candidates are graph_defs alone; a prefix's ends in
// the projection of its last graph_def's result by the weight argument.
// CHECK-LABEL: func.func @mlp_down_candidate_0(
// CHECK: %[[H:.*]] = mirage_kernel.graph_def({{.*}}) -> tensor<1x512xf16> grid
// CHECK: %[[O:.*]] = mirage_kernel.matmul %[[H]], %arg3 : tensor<1x512xf16>, tensor<512x256xf16> -> tensor<1x256xf16>
// CHECK-NEXT: return %[[O]]
func.func @mlp_down(%X: tensor<1x256xf16>, %W1: tensor<256x512xf16>, %W2: tensor<256x512xf16>, %W3: tensor<512x256xf16>) -> tensor<1x256xf16> {
  %G = mirage_kernel.matmul %X, %W1 : tensor<1x256xf16>, tensor<256x512xf16> -> tensor<1x512xf16>
  %A = mirage_kernel.silu %G : tensor<1x512xf16>
  %U = mirage_kernel.matmul %X, %W2 : tensor<1x256xf16>, tensor<256x512xf16> -> tensor<1x512xf16>
  %H = mirage_kernel.mul %A, %U : tensor<1x512xf16>, tensor<1x512xf16> -> tensor<1x512xf16>
  %O = mirage_kernel.matmul %H, %W3 : tensor<1x512xf16>, tensor<512x256xf16> -> tensor<1x256xf16>
  return %O : tensor<1x256xf16>
}

// A norm before the projection holds no matmul of its own: searched whole.
func.func @norm_linear(%X: tensor<1x256xf16>, %W: tensor<256x512xf16>) -> tensor<1x512xf16> {
  %N = mirage_kernel.rms_norm %X size 256 : tensor<1x256xf16>
  %O = mirage_kernel.matmul %N, %W : tensor<1x256xf16>, tensor<256x512xf16> -> tensor<1x512xf16>
  return %O : tensor<1x512xf16>
}
