// RUN: mirage-opt %s --split-input-file --mirage-superoptimize='forloop-ranges=2,4' 2>&1 | FileCheck %s
// Without a for-loop, a block-level rms_norm normalises whole rows.
// RUN: sed -n '1,/^\/\/ -----/p' %s | mirage-opt --mirage-superoptimize='forloop-ranges=1' 2>&1 | FileCheck %s --check-prefix=FREE
// RUN: not mirage-opt %s --mirage-superoptimize='oracle-timeout=0' 2>&1 | FileCheck %s --check-prefix=ORACLE
// RUN: not mirage-opt %s --mirage-superoptimize='max-ops=0' 2>&1 | FileCheck %s --check-prefix=OPS
// RUN: not mirage-opt %s --mirage-superoptimize='grid-sizes=4,0' 2>&1 | FileCheck %s --check-prefix=GRID
// RUN: not mirage-opt %s --mirage-superoptimize='threads=1025' 2>&1 | FileCheck %s --check-prefix=THREADS
// The result is proved equivalent to the input again, independently.
// RUN: sed -n '1,/^\/\/ -----/p' %s > %t.reference.mlir
// RUN: mirage-opt %t.reference.mlir --mirage-superoptimize='forloop-ranges=2,4' 2>/dev/null | sed -e '/^module {$/d' -e '/^}$/d' -e 's/@rmsnorm_linear/@searched/' > %t.searched.mlir
// RUN: cat %t.reference.mlir %t.searched.mlir | mirage-opt --mirage-check-equivalence -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQUIV

// OPS: error: max-ops must be in [1, 16], got 0
// GRID: error: grid-sizes must be in [1, 2147483647], got 0
// THREADS: error: threads must be in [0, 1024], got 1025
// ORACLE: error: oracle-timeout must be in [1, 60000], got 0
// FREE: remark: superoptimized
// FREE: input_loader %{{.*}} imap <{{.*}}> : tensor<2x64xf16> -> !mirage_block.stensor<{{[12]}}x64xf16>
// FREE: rms_norm %{{.*}} size 64
// FREE: matmul
// EQUIV: remark: is equivalent to @rmsnorm_linear

// The paper's RMSNorm + Linear: one kernel whose for-loop runs over the
// contraction dimension, with the normalisation moved after the matmul.
// CHECK: remark: superoptimized: {{.*}} {{[1-9][0-9]*}} of {{[0-9]+}} verified
// CHECK-LABEL: func.func @rmsnorm_linear
// CHECK-NOT: mirage_kernel.rms_norm
// CHECK-NOT: mirage_kernel.matmul
// CHECK: mirage_kernel.graph_def
// CHECK: input_loader %{{.*}} fmap 1
// CHECK: input_loader %{{.*}} fmap 0
// CHECK: matmul
// CHECK-DAG: forloop_accum %{{.*}} sum
// CHECK-DAG: forloop_accum %{{.*}} rms_last
// CHECK: div
// CHECK: output_saver
func.func @rmsnorm_linear(%x: tensor<2x64xf16>, %w: tensor<64x32xf16>) -> tensor<2x32xf16> {
  %n = mirage_kernel.rms_norm %x size 64 : tensor<2x64xf16>
  %o = mirage_kernel.matmul %n, %w : tensor<2x64xf16>, tensor<64x32xf16> -> tensor<2x32xf16>
  return %o : tensor<2x32xf16>
}

// -----

// Outside today's fragment: left unchanged with a remark. (A function with
// several outputs is searched: superoptimize-outputs.mlir.)
// CHECK: remark: left unchanged: concat is outside the searchable fragment
// CHECK-LABEL: func.func @two_outputs
// CHECK: mirage_kernel.concat
func.func @two_outputs(%x: tensor<4x8xf32>) -> (tensor<4x16xf32>, tensor<4x8xf32>) {
  %c = mirage_kernel.concat %x, %x dim 1 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x16xf32>
  %n = mirage_kernel.neg %x : tensor<4x8xf32>
  return %c, %n : tensor<4x16xf32>, tensor<4x8xf32>
}

// -----

// Already a µGraph: not a reference, untouched.
// CHECK-LABEL: func.func @fused
// CHECK: mirage_kernel.graph_def
func.func @fused(%x: tensor<8x64xf16>) -> tensor<8x64xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<8x64xf16>) -> tensor<8x64xf16>
      grid [4, 1, 1] block [64, 1, 1] forloop 1 {
    %t = input_loader %X imap <x = 0> : tensor<8x64xf16> -> !mirage_block.stensor<2x64xf16>
    %e = exp %t : !mirage_block.stensor<2x64xf16>
    %r = output_saver %e omap <x = 0> : !mirage_block.stensor<2x64xf16> -> tensor<8x64xf16>
    yield %r : tensor<8x64xf16>
  }
  return %o : tensor<8x64xf16>
}
