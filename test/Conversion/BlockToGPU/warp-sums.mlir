// RUN: mirage-opt %s --split-input-file --convert-mirage-block-to-gpu=row-programs=false | FileCheck %s
// RUN: mirage-opt %s --split-input-file --mirage-to-ptx-pipeline="chip=sm_90a row-programs=false" | FileCheck %s --check-prefix=PTX

// Row programs are off (row-programs=false): these kernels show the
// op-by-op lowering; row-program.mlir has the bodies that run in registers.

// A sum split into a multiple of 32 slices is finished by a warp per
// result element: lane l adds the f32 partials of slices l, l + 32, ...,
// a butterfly of shuffles (xor 16, 8, 4, 2, 1) adds the lanes' sums, and
// lane 0 finishes the element.

// The sum of one 4096-element row (read in place), 128 threads: 128 slices
// of 32 terms. The 32 (element, lane) pairs are one round of the 128
// threads, guarded: threads 0-31, i.e. warp 0.
// CHECK-LABEL: gpu.func @row_sum_kernel0
// CHECK: %[[TID:.*]] = arith.addi %thread_id_x
// CHECK: %[[PARTIALS:.*]] = memref.view %{{.*}} to memref<128xf32, #gpu.address_space<workgroup>>
// CHECK: memref.store %{{.*}}, %[[PARTIALS]]
// CHECK: gpu.barrier
// CHECK: %[[I:.*]] = arith.addi %{{.*}}, %[[TID]]
// CHECK: %[[INSIDE:.*]] = arith.cmpi ult, %[[I]], %c32
// CHECK: scf.if %[[INSIDE]]
// CHECK: %[[LANE:.*]] = arith.remui %[[I]], %c32
// CHECK-COUNT-4: memref.load %[[PARTIALS]]
// CHECK: gpu.shuffle xor %{{.*}}, %c16_i32{{(_[0-9]+)?}}, %c32_i32{{.*}} : f32
// CHECK: gpu.shuffle xor %{{.*}}, %c8_i32{{(_[0-9]+)?}}, %c32_i32{{.*}} : f32
// CHECK: gpu.shuffle xor %{{.*}}, %c4_i32{{(_[0-9]+)?}}, %c32_i32{{.*}} : f32
// CHECK: gpu.shuffle xor %{{.*}}, %c2_i32{{(_[0-9]+)?}}, %c32_i32{{.*}} : f32
// CHECK: gpu.shuffle xor %{{.*}}, %c1_i32{{(_[0-9]+)?}}, %c32_i32{{.*}} : f32
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[LANE]], %c0
// CHECK: scf.if %[[FIRST]]
// CHECK: memref.store
// CHECK: gpu.barrier
// PTX-LABEL: .visible .entry row_sum_kernel0(
// PTX-COUNT-5: shfl.sync.bfly.b32
func.func @row_sum(%x: tensor<1x4096xf16>) -> tensor<1x1xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<1x4096xf16>) -> tensor<1x1xf16>
      grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    %xt = input_loader %X imap <> : tensor<1x4096xf16> -> !mirage_block.stensor<1x4096xf16>
    %n = reduction %xt dim 1 : !mirage_block.stensor<1x4096xf16> -> !mirage_block.stensor<1x1xf16>
    %s = output_saver %n omap <> : !mirage_block.stensor<1x1xf16> -> tensor<1x1xf16>
    yield %s : tensor<1x1xf16>
  }
  return %o : tensor<1x1xf16>
}

// -----

// 16 slices: one thread per element adds them, no shuffles.
// CHECK-LABEL: gpu.func @short_rows_kernel0
// CHECK-NOT: gpu.shuffle
// CHECK: gpu.return
func.func @short_rows(%x: tensor<16x512xf16>) -> tensor<16x1xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<16x512xf16>) -> tensor<16x1xf16>
      grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    %xt = input_loader %X imap <> : tensor<16x512xf16> -> !mirage_block.stensor<16x512xf16>
    %n = reduction %xt dim 1 : !mirage_block.stensor<16x512xf16> -> !mirage_block.stensor<16x1xf16>
    %s = output_saver %n omap <> : !mirage_block.stensor<16x1xf16> -> tensor<16x1xf16>
    yield %s : tensor<16x1xf16>
  }
  return %o : tensor<16x1xf16>
}
