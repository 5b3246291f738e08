// RUN: mirage-opt %s --mirage-kernel-expand-to-blocks=library-matmuls=true | FileCheck %s
// The fused expansion computes the same function as its input:
// RUN: mirage-opt %s --mirage-kernel-expand-to-blocks | sed -e '/^module {$/d' -e '/^}$/d' -e 's/@gated/@gated_expanded/' > %t.mlir
// RUN: cat %s %t.mlir | mirage-opt --mirage-check-equivalence -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQUIV

// EQUIV: remark: is equivalent to @gated

// A tree of elementwise ops whose inner results have one use and the root's
// type is one graph_def: its leaves are loaded once each, the ops run in
// program order, and only the root is saved (the gated MLP's silu and
// product, after two library matmuls).
// CHECK-LABEL: func.func @gated
// CHECK: mirage_kernel.matmul
// CHECK: mirage_kernel.matmul
// CHECK: mirage_kernel.graph_def(%[[G:.*]] = %{{.*}} : tensor<16x64xf16>, %[[U:.*]] = %{{.*}} : tensor<16x64xf16>) -> tensor<16x64xf16>
// CHECK-NEXT: %[[LG:.*]] = input_loader %[[G]]
// CHECK-NEXT: %[[LU:.*]] = input_loader %[[U]]
// CHECK-NEXT: %[[S:.*]] = silu %[[LG]]
// CHECK-NEXT: %[[M:.*]] = mul %[[S]], %[[LU]]
// CHECK-NEXT: %[[H:.*]] = mul_scalar %[[M]] by 5.000000e-01
// CHECK-NEXT: output_saver %[[H]]
// CHECK-NOT: mirage_kernel.graph_def
// CHECK: return
func.func @gated(%x: tensor<16x32xf16>, %w1: tensor<32x64xf16>, %w2: tensor<32x64xf16>) -> tensor<16x64xf16> {
  %g = mirage_kernel.matmul %x, %w1 : tensor<16x32xf16>, tensor<32x64xf16> -> tensor<16x64xf16>
  %u = mirage_kernel.matmul %x, %w2 : tensor<16x32xf16>, tensor<32x64xf16> -> tensor<16x64xf16>
  %s = mirage_kernel.silu %g : tensor<16x64xf16>
  %m = mirage_kernel.mul %s, %u : tensor<16x64xf16>, tensor<16x64xf16> -> tensor<16x64xf16>
  %h = mirage_kernel.mul_scalar %m by 0.5 : tensor<16x64xf16>
  return %h : tensor<16x64xf16>
}
