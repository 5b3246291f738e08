// RUN: mirage-opt %s --mirage-kernel-expand-to-blocks='library-matmuls=true' --convert-mirage-block-to-gpu --convert-mirage-kernel-to-gpu | FileCheck %s
// RUN: mirage-opt %s --mirage-kernel-expand-to-blocks --convert-mirage-block-to-gpu --convert-mirage-kernel-to-gpu | FileCheck %s --check-prefix=KERNELS

// With library-matmuls, matmuls stay for the runtime's GEMM library and
// become library_matmul calls on the (unflattened) buffers, in program
// order among the kernel launches; without, every op is a kernel.

// CHECK-LABEL: func.func @lora_like
// CHECK-SAME: (%[[X:.*]]: memref<16x256xf16>, %[[W:.*]]: memref<256x64xf16>, %[[A:.*]]: memref<256x16xf16>, %[[B:.*]]: memref<16x64xf16>, %[[O:.*]]: memref<16x64xf16> {mirage.result = 0 : i64})
// CHECK: %[[XW:.*]] = memref.alloc() : memref<16x64xf16>
// CHECK-NEXT: mirage_kernel.library_matmul %[[X]], %[[W]], %[[XW]] : memref<16x256xf16>, memref<256x64xf16>, memref<16x64xf16>
// CHECK: %[[XA:.*]] = memref.alloc() : memref<16x16xf16>
// CHECK-NEXT: mirage_kernel.library_matmul %[[X]], %[[A]], %[[XA]]
// CHECK: %[[XAB:.*]] = memref.alloc() : memref<16x64xf16>
// CHECK-NEXT: mirage_kernel.library_matmul %[[XA]], %[[B]], %[[XAB]]
// CHECK: gpu.launch_func @mirage_kernels::@lora_like_kernel0
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

// A program of library calls alone still has its (empty) kernel module.
// CHECK-LABEL: func.func @only_matmul
// CHECK: mirage_kernel.library_matmul %{{.*}}, %{{.*}}, %{{.*}} : memref<2x16x64xf16>, memref<2x64x32xf16>, memref<2x16x32xf32>
// CHECK: gpu.module @mirage_kernels
func.func @only_matmul(%q: tensor<2x16x64xf16>, %k: tensor<2x64x32xf16>) -> tensor<2x16x32xf32> {
  %s = mirage_kernel.matmul %q, %k : tensor<2x16x64xf16>, tensor<2x64x32xf16> -> tensor<2x16x32xf32>
  return %s : tensor<2x16x32xf32>
}
