// RUN: mirage-opt %s --mirage-kernel-expand-to-blocks | FileCheck %s
// The expansion computes the same function as its input:
// RUN: mirage-opt %s --mirage-kernel-expand-to-blocks | sed -e '/^module {$/d' -e '/^}$/d' -e 's/@all_ops/@all_ops_expanded/' > %t.expanded.mlir
// RUN: cat %s %t.expanded.mlir | mirage-opt --mirage-check-equivalence -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQUIV
// RUN: not mirage-opt %s -split-input-file --mirage-kernel-expand-to-blocks='threads=2048' 2>&1 | FileCheck %s --check-prefix=THREADS

// EQUIV: remark: is equivalent to @all_ops

// CHECK-LABEL: func.func @all_ops
// CHECK-NOT: mirage_kernel.{{(exp|matmul|reduction|rms_norm|concat|add|mul_scalar|silu)}}
// CHECK: mirage_kernel.graph_def(%[[A:.*]] = %{{.*}} : tensor<4x8xf32>) -> tensor<4x8xf32> grid [1, 1, 1] block [128, 1, 1] forloop 1 {
// CHECK-NEXT: %[[T:.*]] = input_loader %[[A]] imap <> : tensor<4x8xf32> -> !mirage_block.stensor<4x8xf32>
// CHECK-NEXT: %[[E:.*]] = exp %[[T]] : !mirage_block.stensor<4x8xf32>
// CHECK-NEXT: %[[S:.*]] = output_saver %[[E]] omap <> : !mirage_block.stensor<4x8xf32> -> tensor<4x8xf32>
// CHECK-NEXT: yield %[[S]] : tensor<4x8xf32>
// CHECK: matmul
// CHECK: reduction %{{.*}} dim 1 size 2
// CHECK: rms_norm %{{.*}} size 8 eps 9.99999997E-7
// CHECK: concat %{{.*}}, %{{.*}} dim 0
// CHECK: mul_scalar %{{.*}} by 5.000000e-01
// CHECK: silu
// CHECK: add
// THREADS: error: threads must be in [1, 1024], got 2048
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
