// RUN: mirage-opt %s --mirage-kernel-expand-to-blocks --convert-mirage-block-to-gpu --convert-mirage-kernel-to-gpu | FileCheck %s

// Tensors become buffers, the result a destination argument, the
// intermediate an allocation, and each launch a gpu.launch_func on flat
// buffers. (exp's result, read twice by the square, is not fused into the
// square's kernel: the expansion fuses only values of one use.)

// CHECK-LABEL: func.func @two_kernels
// CHECK-SAME: (%[[X:.*]]: memref<8x64xf16>, %[[Y:.*]]: memref<8x64xf16> {mirage.result = 0 : i64})
// CHECK: %[[XF:.*]] = memref.collapse_shape %[[X]] {{\[\[}}0, 1]] : memref<8x64xf16> into memref<512xf16>
// CHECK: %[[E:.*]] = memref.alloc() : memref<8x64xf16>
// CHECK: %[[EF:.*]] = memref.collapse_shape %[[E]] {{\[\[}}0, 1]] : memref<8x64xf16> into memref<512xf16>
// CHECK: gpu.launch_func @mirage_kernels::@two_kernels_kernel0 blocks in ({{.*}}) threads in ({{.*}}) dynamic_shared_memory_size %{{.*}} args(%[[XF]] : memref<512xf16>, %[[EF]] : memref<512xf16>)
// CHECK: %[[EF2:.*]] = memref.collapse_shape %[[E]]
// CHECK: %[[EF3:.*]] = memref.collapse_shape %[[E]]
// CHECK: %[[YF:.*]] = memref.collapse_shape %[[Y]]
// CHECK: gpu.launch_func @mirage_kernels::@two_kernels_kernel1 {{.*}} args(%[[EF2]] : memref<512xf16>, %[[EF3]] : memref<512xf16>, %[[YF]] : memref<512xf16>)
// CHECK: memref.dealloc %[[E]] : memref<8x64xf16>
// CHECK-NEXT: return
// CHECK-NOT: mirage_kernel
func.func @two_kernels(%x: tensor<8x64xf16>) -> tensor<8x64xf16> {
  %e = mirage_kernel.exp %x : tensor<8x64xf16>
  %n = mirage_kernel.mul %e, %e : tensor<8x64xf16>, tensor<8x64xf16> -> tensor<8x64xf16>
  return %n : tensor<8x64xf16>
}

// Cluster launches carry their cluster shape.
// CHECK-LABEL: func.func @clustered
// CHECK: gpu.launch_func @mirage_kernels::@clustered_kernel0 clusters in (%{{.*}}, %{{.*}}, %{{.*}}) blocks in
// CHECK-SAME: {mirage.non_portable_cluster}
func.func @clustered(%x: tensor<8x32xf16>) -> tensor<8x32xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<8x32xf16>) -> tensor<8x32xf16>
      grid [2, 1, 1] block [32, 1, 1] forloop 1 cluster [2, 1, 1] non_portable {
    %t = input_loader %X imap <x = 1> : tensor<8x32xf16> -> !mirage_block.stensor<8x16xf16>
    %r = cluster_reduce %t : !mirage_block.stensor<8x16xf16>
    %s = output_saver %r omap <x = 1> : !mirage_block.stensor<8x16xf16> -> tensor<8x32xf16>
    yield %s : tensor<8x32xf16>
  }
  return %o : tensor<8x32xf16>
}

// Functions without Mirage ops are left alone.
// CHECK-LABEL: func.func @untouched(%{{.*}}: tensor<4xf32>) -> tensor<4xf32>
func.func @untouched(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
