// RUN: mirage-opt %s --mirage-kernel-expand-to-blocks='library-matmuls=true' --convert-mirage-block-to-gpu --convert-mirage-kernel-to-gpu | FileCheck %s
// RUN: mirage-opt %s --mirage-kernel-expand-to-blocks --convert-mirage-block-to-gpu --convert-mirage-kernel-to-gpu | FileCheck %s --check-prefix=KERNELS

// With library-matmuls, matmuls stay for the runtime's GEMM library and
// become library_matmul calls on the (unflattened) buffers, in program
// order among the kernel launches; an add of a matmul's only result and a
// tensor of its type is the call's epilogue (`plus`), so LoRA needs no
// kernel; without, every op is a kernel.

// CHECK-LABEL: func.func @lora_like
// CHECK-SAME: (%[[X:.*]]: memref<16x256xf16>, %[[W:.*]]: memref<256x64xf16>, %[[A:.*]]: memref<256x16xf16>, %[[B:.*]]: memref<16x64xf16>, %[[O:.*]]: memref<16x64xf16> {mirage.result = 0 : i64})
// CHECK: %[[XW:.*]] = memref.alloc() : memref<16x64xf16>
// CHECK-NEXT: mirage_kernel.library_matmul %[[X]], %[[W]], %[[XW]] : memref<16x256xf16>, memref<256x64xf16>, memref<16x64xf16>
// CHECK: %[[XA:.*]] = memref.alloc() : memref<16x16xf16>
// CHECK-NEXT: mirage_kernel.library_matmul %[[X]], %[[A]], %[[XA]]
// CHECK-NEXT: mirage_kernel.library_matmul %[[XA]], %[[B]], %[[O]] plus %[[XW]] : memref<16x16xf16>, memref<16x64xf16>, memref<16x64xf16>, memref<16x64xf16>
// CHECK-NOT: gpu.launch_func
// CHECK-NOT: mirage_kernel.matmul
// CHECK: return
// KERNELS-LABEL: func.func @lora_like
// KERNELS-COUNT-4: gpu.launch_func
// KERNELS-NOT: library_matmul
func.func @lora_like(%x: tensor<16x256xf16>, %w: tensor<256x64xf16>, %a: tensor<256x16xf16>, %b: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %xw = mirage_kernel.matmul %x, %w : tensor<16x256xf16>, tensor<256x64xf16> -> tensor<16x64xf16>
  %xa = mirage_kernel.matmul %x, %a : tensor<16x256xf16>, tensor<256x16xf16> -> tensor<16x16xf16>
  %xab = mirage_kernel.matmul %xa, %b : tensor<16x16xf16>, tensor<16x64xf16> -> tensor<16x64xf16>
  %o = mirage_kernel.add %xw, %xab : tensor<16x64xf16>, tensor<16x64xf16> -> tensor<16x64xf16>
  return %o : tensor<16x64xf16>
}

// An add stays a kernel where the call cannot compute it: the matmul's
// result has another use (here the function returns it), or the other
// operand is broadcast. After a fused add, an elementwise op is a kernel of
// its own that reads the call's result.
// CHECK-LABEL: func.func @not_fused
// CHECK-SAME: (%[[X:.*]]: memref<16x32xf16>, %[[W:.*]]: memref<32x64xf16>, %[[R:.*]]: memref<1x64xf16>, %[[C:.*]]: memref<16x64xf16>, %[[O0:.*]]: memref<16x64xf16> {mirage.result = 0 : i64}, %[[O1:.*]]: memref<16x64xf16> {mirage.result = 1 : i64}, %[[O2:.*]]: memref<16x64xf16> {mirage.result = 2 : i64}, %[[O3:.*]]: memref<16x64xf16> {mirage.result = 3 : i64})
// CHECK: mirage_kernel.library_matmul %[[X]], %[[W]], %[[O0]] :
// CHECK: gpu.launch_func @mirage_kernels::@not_fused_kernel0 {{.*}}args(
// CHECK: mirage_kernel.library_matmul %[[X]], %[[W]], %[[M2:.*]] :
// CHECK: gpu.launch_func @mirage_kernels::@not_fused_kernel1
// CHECK: mirage_kernel.library_matmul %[[X]], %[[W]], %[[S:.*]] plus %[[C]] :
// CHECK: gpu.launch_func @mirage_kernels::@not_fused_kernel2
// CHECK-NOT: library_matmul
// CHECK: return
func.func @not_fused(%x: tensor<16x32xf16>, %w: tensor<32x64xf16>, %r: tensor<1x64xf16>, %c: tensor<16x64xf16>) -> (tensor<16x64xf16>, tensor<16x64xf16>, tensor<16x64xf16>, tensor<16x64xf16>) {
  %m0 = mirage_kernel.matmul %x, %w : tensor<16x32xf16>, tensor<32x64xf16> -> tensor<16x64xf16>
  %a0 = mirage_kernel.add %m0, %c : tensor<16x64xf16>, tensor<16x64xf16> -> tensor<16x64xf16>
  %m1 = mirage_kernel.matmul %x, %w : tensor<16x32xf16>, tensor<32x64xf16> -> tensor<16x64xf16>
  %a1 = mirage_kernel.add %m1, %r : tensor<16x64xf16>, tensor<1x64xf16> -> tensor<16x64xf16>
  %m2 = mirage_kernel.matmul %x, %w : tensor<16x32xf16>, tensor<32x64xf16> -> tensor<16x64xf16>
  %a2 = mirage_kernel.add %c, %m2 : tensor<16x64xf16>, tensor<16x64xf16> -> tensor<16x64xf16>
  %e2 = mirage_kernel.exp %a2 : tensor<16x64xf16>
  return %m0, %a0, %a1, %e2 : tensor<16x64xf16>, tensor<16x64xf16>, tensor<16x64xf16>, tensor<16x64xf16>
}

// A program of library calls alone still has its (empty) kernel module.
// CHECK-LABEL: func.func @only_matmul
// CHECK: mirage_kernel.library_matmul %{{.*}}, %{{.*}}, %{{.*}} : memref<2x16x64xf16>, memref<2x64x32xf16>, memref<2x16x32xf32>
// CHECK: gpu.module @mirage_kernels
func.func @only_matmul(%q: tensor<2x16x64xf16>, %k: tensor<2x64x32xf16>) -> tensor<2x16x32xf32> {
  %s = mirage_kernel.matmul %q, %k : tensor<2x16x64xf16>, tensor<2x64x32xf16> -> tensor<2x16x32xf32>
  return %s : tensor<2x16x32xf32>
}

