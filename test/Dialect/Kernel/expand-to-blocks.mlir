// RUN: mirage-opt %s --mirage-kernel-expand-to-blocks=tile-elements=8 | FileCheck %s
// RUN: mirage-opt %s --mirage-kernel-expand-to-blocks | FileCheck %s --check-prefix=WHOLE
// The expansion computes the same function as its input, tiled or not:
// RUN: mirage-opt %s --mirage-kernel-expand-to-blocks=tile-elements=8 | sed -e '/^module {$/d' -e '/^}$/d' -e 's/@all_ops/@all_ops_tiled/' > %t.tiled.mlir
// RUN: cat %s %t.tiled.mlir | mirage-opt --mirage-check-equivalence -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQUIV
// RUN: mirage-opt %s --mirage-kernel-expand-to-blocks | sed -e '/^module {$/d' -e '/^}$/d' -e 's/@all_ops/@all_ops_expanded/' > %t.expanded.mlir
// RUN: cat %s %t.expanded.mlir | mirage-opt --mirage-check-equivalence -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQUIV
// RUN: not mirage-opt %s -split-input-file --mirage-kernel-expand-to-blocks='threads=2048' 2>&1 | FileCheck %s --check-prefix=THREADS
// RUN: not mirage-opt %s --mirage-kernel-expand-to-blocks='tile-elements=0' 2>&1 | FileCheck %s --check-prefix=TILE

// EQUIV: remark: is equivalent to @all_ops

// Grid axis x splits the outermost dimension that may be split.
// CHECK-LABEL: func.func @all_ops
// CHECK-NOT: mirage_kernel.{{(exp|matmul|reduction|rms_norm|concat|add|mul_scalar|silu)}}
// CHECK: mirage_kernel.graph_def(%[[A:.*]] = %{{.*}} : tensor<4x8xf32>) -> tensor<4x8xf32> grid [4, 1, 1] block [128, 1, 1] forloop 1 {
// CHECK-NEXT: %[[T:.*]] = input_loader %[[A]] imap <x = 0> : tensor<4x8xf32> -> !mirage_block.stensor<1x8xf32>
// CHECK-NEXT: %[[E:.*]] = exp %[[T]] : !mirage_block.stensor<1x8xf32>
// CHECK-NEXT: %[[S:.*]] = output_saver %[[E]] omap <x = 0> : !mirage_block.stensor<1x8xf32> -> tensor<4x8xf32>
// CHECK-NEXT: yield %[[S]] : tensor<4x8xf32>
// A matmul splits the larger of m and n first (here the 8 columns, so the
// lhs is replicated and each rhs column read once); the rhs follows the
// columns of the result.
// CHECK: grid [4, 1, 1]
// CHECK: input_loader %{{.*}} imap <> : tensor<4x8xf32> -> !mirage_block.stensor<4x8xf32>
// CHECK-NEXT: input_loader %{{.*}} imap <x = 1> : tensor<8x8xf32> -> !mirage_block.stensor<8x2xf32>
// CHECK-NEXT: matmul
// The reduced dimension is never split; the rows are, as many as the 32
// elements the reduction reads ask for (8 per block).
// CHECK: grid [4, 1, 1]
// CHECK: reduction %{{.*}} dim 1 size 2 : !mirage_block.stensor<1x8xf32> -> !mirage_block.stensor<1x2xf32>
// CHECK: rms_norm %{{.*}} size 8 eps 9.99999997E-7 : !mirage_block.stensor<1x8xf32>
// The concatenated dimension is never split.
// CHECK: grid [8, 1, 1]
// CHECK: concat %{{.*}}, %{{.*}} dim 0 : !mirage_block.stensor<4x1xf32>, !mirage_block.stensor<4x1xf32> -> !mirage_block.stensor<8x1xf32>
// CHECK: mul_scalar %{{.*}} by 5.000000e-01
// CHECK: silu
// CHECK: add

// With the default tile size these shapes fit one block.
// WHOLE: mirage_kernel.graph_def(%{{.*}} = %{{.*}} : tensor<4x8xf32>) -> tensor<4x8xf32> grid [1, 1, 1] block [128, 1, 1] forloop 1 {
// WHOLE-NEXT: input_loader %{{.*}} imap <> : tensor<4x8xf32> -> !mirage_block.stensor<4x8xf32>
// THREADS: error: threads must be in [1, 1024], got 2048
// TILE: error: tile-elements must be positive, got 0
func.func @all_ops(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> (tensor<4x8xf32>, tensor<8x8xf32>, tensor<4x2xf32>) {
  %e = mirage_kernel.exp %x : tensor<4x8xf32>
  %m = mirage_kernel.matmul %e, %w : tensor<4x8xf32>, tensor<8x8xf32> -> tensor<4x8xf32>
  %r = mirage_kernel.reduction %m dim 1 size 2 : tensor<4x8xf32> -> tensor<4x2xf32>
  %n = mirage_kernel.rms_norm %m size 8 eps 1.0e-6 : tensor<4x8xf32>
  %c = mirage_kernel.concat %n, %x dim 0 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<8x8xf32>
  %h = mirage_kernel.mul_scalar %c by 0.5 : tensor<8x8xf32>
  %s = mirage_kernel.silu %h : tensor<8x8xf32>
  %a = mirage_kernel.add %e, %x : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %a, %s, %r : tensor<4x8xf32>, tensor<8x8xf32>, tensor<4x2xf32>
}
