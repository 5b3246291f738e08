// RUN: mirage-opt %s --convert-mirage-block-to-gpu=chip=sm_90a | FileCheck %s
// RUN: mirage-opt %s --mirage-to-ptx-pipeline=chip=sm_80 | FileCheck %s --check-prefix=PTX

// Every kernel is recorded beside it in the GPU module with what it was
// compiled for: the public constant <kernel>__launch holds its grid, its
// block, then the bytes of each buffer parameter (here x: 64 x 64 f16, and
// the 64 x 64 f16 result), so that the runtime can refuse a plan that
// launches it otherwise.

// CHECK-LABEL: gpu.module @mirage_kernels
// CHECK: gpu.func @shape_kernel0(%{{.*}}: memref<4096xf16>, %{{.*}}: memref<4096xf16>) kernel
// CHECK: memref.global constant @shape_kernel0__launch : memref<8xi64> = dense<[4, 2, 1, 64, 1, 1, 8192, 8192]> {alignment = 8 : i64}

// The PTX keeps it (an i64 array, as little-endian bytes).
// PTX: .visible .global .align 8 .b8 shape_kernel0__launch[64] = {4, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 1,
func.func @shape(%x: tensor<64x64xf16>) -> tensor<64x64xf16> {
  %e = mirage_kernel.graph_def(%X = %x : tensor<64x64xf16>) -> tensor<64x64xf16>
      grid [4, 2, 1] block [64, 1, 1] forloop 1 {
    %t = input_loader %X imap <x = 0, y = 1> : tensor<64x64xf16> -> !mirage_block.stensor<16x32xf16>
    %s = exp %t : !mirage_block.stensor<16x32xf16>
    %r = output_saver %s omap <x = 0, y = 1> : !mirage_block.stensor<16x32xf16> -> tensor<64x64xf16>
    yield %r : tensor<64x64xf16>
  }
  return %e : tensor<64x64xf16>
}
