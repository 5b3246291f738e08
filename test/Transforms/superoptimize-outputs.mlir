// A function with several results is searched one output at a time: each
// output an op computes is a part of its own, over the function's inputs
// and the outputs before it (which it reads rather than recomputes), and
// the candidates compose one program per part. Here the residual sum `h`
// is one part and the norm and projection of `h` the other, which reads
// `h`: the norm and the projection become one graph_def. An output that is
// an input, or returned twice, needs no part. mirage-check-equivalence
// proves the emitted candidates against the function as written.
// RUN: mirage-opt %s --mirage-superoptimize='time-limit=0 forloop-ranges=1,2 grid-sizes=2,4,8 max-candidates=2' 2>&1 | FileCheck %s
// RUN: mirage-opt %s --mirage-superoptimize='time-limit=0 forloop-ranges=1,2 grid-sizes=2,4,8 max-candidates=2 emit-candidates=true use-tuning-db=false' 2>/dev/null | mirage-opt --mirage-check-equivalence=reference=residual_as_written 2>&1 | FileCheck %s --check-prefix=PROOF

// CHECK: remark: superoptimized: searched its 2 outputs one at a time ({{[1-9][0-9]*}}, {{[1-9][0-9]*}} candidates each); 2 compositions
// CHECK-LABEL: func.func @residual(
// CHECK: %[[H:.*]] = {{.*}}add
// CHECK: %[[Y:.*]] = mirage_kernel.graph_def({{.*}}%[[H]] :
// CHECK: rms_norm
// CHECK: matmul
// CHECK: return %[[H]], %[[Y]], %[[H]], %arg0 :
// PROOF-COUNT-2: remark: is equivalent to @residual_as_written
// PROOF-NOT: is not equivalent
func.func @residual(%x: tensor<2x64xf16>, %r: tensor<2x64xf16>, %w: tensor<64x32xf16>) -> (tensor<2x64xf16>, tensor<2x32xf16>, tensor<2x64xf16>, tensor<2x64xf16>) {
  %h = mirage_kernel.add %x, %r : tensor<2x64xf16>, tensor<2x64xf16> -> tensor<2x64xf16>
  %n = mirage_kernel.rms_norm %h size 64 eps 1.0e-6 : tensor<2x64xf16>
  %y = mirage_kernel.matmul %n, %w : tensor<2x64xf16>, tensor<64x32xf16> -> tensor<2x32xf16>
  return %h, %y, %h, %x : tensor<2x64xf16>, tensor<2x32xf16>, tensor<2x64xf16>, tensor<2x64xf16>
}

