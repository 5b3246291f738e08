// RUN: mirage-opt %s --mirage-kernel-expand-to-blocks | FileCheck %s
// The expansion computes the same function as its input:
// RUN: mirage-opt %s --mirage-kernel-expand-to-blocks | sed -e '/^module {$/d' -e '/^}$/d' -e 's/@kept_apart/@kept_apart_expanded/' > %t.mlir
// RUN: cat %s %t.mlir | mirage-opt --mirage-check-equivalence -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQUIV

// EQUIV: remark: is equivalent to @kept_apart

// Values used twice, or of another shape, stay apart: exp feeds the sum and
// the division; the division's broadcast operand is its own leaf. The sum
// is also returned, so no row group (expand-to-blocks-row-groups.test)
// takes it, nor the exp that it reads: the sum would have a use outside.
// CHECK-LABEL: func.func @kept_apart
// CHECK: graph_def
// CHECK-NEXT: input_loader
// CHECK-NEXT: exp
// CHECK-NEXT: output_saver
// CHECK: graph_def
// CHECK-NEXT: input_loader
// CHECK-NEXT: reduction
// CHECK-NEXT: output_saver
// CHECK: graph_def
// CHECK-NEXT: input_loader
// CHECK-NEXT: input_loader
// CHECK-NEXT: div
// CHECK-NEXT: neg
// CHECK-NEXT: output_saver
// CHECK-NOT: graph_def
func.func @kept_apart(%x: tensor<8x64xf32>) -> (tensor<8x64xf32>, tensor<8x1xf32>) {
  %e = mirage_kernel.exp %x : tensor<8x64xf32>
  %r = mirage_kernel.reduction %e dim 1 : tensor<8x64xf32> -> tensor<8x1xf32>
  %d = mirage_kernel.div %e, %r : tensor<8x64xf32>, tensor<8x1xf32> -> tensor<8x64xf32>
  %n = mirage_kernel.neg %d : tensor<8x64xf32>
  return %n, %r : tensor<8x64xf32>, tensor<8x1xf32>
}
