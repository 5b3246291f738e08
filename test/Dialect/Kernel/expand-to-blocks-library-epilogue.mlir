// RUN: mirage-opt %s --mirage-kernel-expand-to-blocks=library-matmuls=true | FileCheck %s
// RUN: mirage-opt %s --mirage-kernel-expand-to-blocks | FileCheck %s --check-prefix=KERNELS

// With library matmuls, an add of a matmul's only result and a tensor of its
// type stays for the matmul's library call (its epilogue), and the tree of
// the elementwise op after it stops there.
// CHECK-LABEL: func.func @lora_tail
// CHECK: %[[M:.*]] = mirage_kernel.matmul
// CHECK-NEXT: %[[A:.*]] = mirage_kernel.add %[[M]], %{{.*}} :
// CHECK-NEXT: mirage_kernel.graph_def(%{{.*}} = %[[A]] : tensor<16x64xf16>) -> tensor<16x64xf16>
// CHECK: silu
// CHECK-NOT: add
// CHECK: return
func.func @lora_tail(%x: tensor<16x32xf16>, %w: tensor<32x64xf16>, %c: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %m = mirage_kernel.matmul %x, %w : tensor<16x32xf16>, tensor<32x64xf16> -> tensor<16x64xf16>
  %a = mirage_kernel.add %m, %c : tensor<16x64xf16>, tensor<16x64xf16> -> tensor<16x64xf16>
  %s = mirage_kernel.silu %a : tensor<16x64xf16>
  return %s : tensor<16x64xf16>
}

// Without library matmuls the add is a kernel like any other.
// KERNELS-LABEL: func.func @lora_tail
// KERNELS-NOT: mirage_kernel.add
// KERNELS: add
// KERNELS: return
