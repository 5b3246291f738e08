// RUN: mirage-opt %s --split-input-file --convert-mirage-block-to-gpu | FileCheck %s
// RUN: mirage-opt %s --split-input-file --convert-mirage-block-to-gpu=tensor-cores=false | FileCheck %s --check-prefix=SIMT
// RUN: mirage-opt %s --split-input-file --mirage-to-ptx-pipeline=chip=sm_90a | FileCheck %s --check-prefix=PTX

// A forloop_accum sum of a tensor-core matmul computed in the loop keeps its
// f32 mma.sync sums in registers: the for-loop carries them (iter_args), no
// iteration stores the matmul's result or adds it to a shared accumulator,
// and the sums are written out once, rounded, after the loop.

// 16x32 result, 4 warps: one 16x8 tile per warp, 4 registers per thread.
// CHECK-LABEL: gpu.func @one_tile_per_warp_kernel0
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[SUMS:.*]]:4 = scf.for %{{.*}} = %c0{{.*}} to %c4{{.*}} step %c1{{.*}} iter_args(%[[S0:.*]] = %[[ZERO]], %[[S1:.*]] = %[[ZERO]], %[[S2:.*]] = %[[ZERO]], %[[S3:.*]] = %[[ZERO]]) -> (f32, f32, f32, f32)
// CHECK: scf.for %{{.*}} iter_args(%{{.*}} = %[[S0]], %{{.*}} = %[[S1]], %{{.*}} = %[[S2]], %{{.*}} = %[[S3]])
// CHECK-COUNT-4: nvvm.mma.sync
// CHECK-NOT: llvm.store
// CHECK-NOT: memref.store
// CHECK: scf.yield %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : f32, f32, f32, f32
// CHECK: }
// The sums, rounded to f16, into the accumulator's result after the loop.
// CHECK: arith.truncf %[[SUMS]]#0
// CHECK: llvm.store %{{.*}} {alignment = 4 : i64} : vector<2xf16>, !llvm.ptr<3>
// CHECK: gpu.barrier
// The SIMT path adds each iteration's result to an f32 accumulator.
// SIMT-LABEL: gpu.func @one_tile_per_warp_kernel0
// SIMT: scf.for %{{.*}} = %c0{{.*}} to %c4{{.*}} step %c1{{.*}} {
// SIMT: arith.addf
// SIMT: gpu.return
// PTX-LABEL: .visible .entry one_tile_per_warp_kernel0(
// PTX-NOT: .local
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
func.func @one_tile_per_warp(%x: tensor<16x256xf16>, %w: tensor<256x32xf16>) -> tensor<16x32xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<16x256xf16>, %W = %w : tensor<256x32xf16>) -> tensor<16x32xf16>
      grid [1, 1, 1] block [128, 1, 1] forloop 4 {
    %xt = input_loader %X imap <> fmap 1 : tensor<16x256xf16> -> !mirage_block.stensor<16x64xf16>
    %wt = input_loader %W imap <> fmap 0 : tensor<256x32xf16> -> !mirage_block.stensor<64x32xf16>
    %y = matmul %xt, %wt : !mirage_block.stensor<16x64xf16>, !mirage_block.stensor<64x32xf16> -> !mirage_block.stensor<16x32xf16>
    %a = forloop_accum %y sum : !mirage_block.stensor<16x32xf16> -> !mirage_block.stensor<16x32xf16>
    %s = output_saver %a omap <> : !mirage_block.stensor<16x32xf16> -> tensor<16x32xf16>
    yield %s : tensor<16x32xf16>
  }
  return %o : tensor<16x32xf16>
}

// -----

// 8x16 result: 2 tiles for 4 warps, so the warps split the contracting
// dimension in 2 slices and keep their partial sums through the loop; after
// it, the partials meet in shared memory and are added in slice order.
// CHECK-LABEL: gpu.func @split_slices_kernel0
// CHECK: %[[PARTIALS:.*]] = memref.view %{{.*}} to memref<256xf32, #gpu.address_space<workgroup>>
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c2{{.*}} step %c1{{.*}} iter_args({{.*}}) -> (f32, f32, f32, f32)
// CHECK: nvvm.mma.sync
// CHECK: scf.yield
// CHECK: memref.extract_aligned_pointer_as_index %[[PARTIALS]]
// CHECK: llvm.store {{.*}} : vector<2xf32>, !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK: arith.addf
// CHECK: gpu.barrier
func.func @split_slices(%x: tensor<8x256xf16>, %w: tensor<256x16xf16>) -> tensor<8x16xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<8x256xf16>, %W = %w : tensor<256x16xf16>) -> tensor<8x16xf16>
      grid [1, 1, 1] block [128, 1, 1] forloop 2 {
    %xt = input_loader %X imap <> fmap 1 : tensor<8x256xf16> -> !mirage_block.stensor<8x128xf16>
    %wt = input_loader %W imap <> fmap 0 : tensor<256x16xf16> -> !mirage_block.stensor<128x16xf16>
    %y = matmul %xt, %wt : !mirage_block.stensor<8x128xf16>, !mirage_block.stensor<128x16xf16> -> !mirage_block.stensor<8x16xf16>
    %a = forloop_accum %y sum : !mirage_block.stensor<8x16xf16> -> !mirage_block.stensor<8x16xf16>
    %s = output_saver %a omap <> : !mirage_block.stensor<8x16xf16> -> tensor<8x16xf16>
    yield %s : tensor<8x16xf16>
  }
  return %o : tensor<8x16xf16>
}

// -----

// 16x40 result: 5 tiles for 4 warps, so each thread carries 2 items (8
// registers) and only warp 0 has a second one: it is added and stored under
// a guard.
// CHECK-LABEL: gpu.func @uneven_items_kernel0
// CHECK: scf.for %{{.*}} iter_args({{.*}}) -> (f32, f32, f32, f32, f32, f32, f32, f32)
// CHECK: %[[ITEM:.*]] = arith.addi %{{.*}}, %c4{{.*}}
// CHECK: %[[HAS:.*]] = arith.cmpi ult, %[[ITEM]], %c5{{.*}}
// CHECK: scf.if %[[HAS]] -> (f32, f32, f32, f32)
// CHECK: nvvm.mma.sync
// CHECK: } else {
// CHECK: scf.yield
// CHECK: scf.if
// CHECK: llvm.store
func.func @uneven_items(%x: tensor<16x64xf16>, %w: tensor<64x40xf16>) -> tensor<16x40xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<16x64xf16>, %W = %w : tensor<64x40xf16>) -> tensor<16x40xf16>
      grid [1, 1, 1] block [128, 1, 1] forloop 4 {
    %xt = input_loader %X imap <> fmap 1 : tensor<16x64xf16> -> !mirage_block.stensor<16x16xf16>
    %wt = input_loader %W imap <> fmap 0 : tensor<64x40xf16> -> !mirage_block.stensor<16x40xf16>
    %y = matmul %xt, %wt : !mirage_block.stensor<16x16xf16>, !mirage_block.stensor<16x40xf16> -> !mirage_block.stensor<16x40xf16>
    %a = forloop_accum %y sum : !mirage_block.stensor<16x40xf16> -> !mirage_block.stensor<16x40xf16>
    %s = output_saver %a omap <> : !mirage_block.stensor<16x40xf16> -> tensor<16x40xf16>
    yield %s : tensor<16x40xf16>
  }
  return %o : tensor<16x40xf16>
}

// -----

// A matmul that something else reads too keeps its shared result and a
// shared accumulator.
// CHECK-LABEL: gpu.func @shared_result_kernel0
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c4{{.*}} step %c1{{.*}} {
// CHECK: nvvm.mma.sync
// CHECK: arith.addf
func.func @shared_result(%x: tensor<16x256xf16>, %w: tensor<256x32xf16>) -> tensor<16x32xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<16x256xf16>, %W = %w : tensor<256x32xf16>) -> tensor<16x32xf16>
      grid [1, 1, 1] block [128, 1, 1] forloop 4 {
    %xt = input_loader %X imap <> fmap 1 : tensor<16x256xf16> -> !mirage_block.stensor<16x64xf16>
    %wt = input_loader %W imap <> fmap 0 : tensor<256x32xf16> -> !mirage_block.stensor<64x32xf16>
    %y = matmul %xt, %wt : !mirage_block.stensor<16x64xf16>, !mirage_block.stensor<64x32xf16> -> !mirage_block.stensor<16x32xf16>
    %m = forloop_accum %y max : !mirage_block.stensor<16x32xf16> -> !mirage_block.stensor<16x32xf16>
    %a = forloop_accum %y sum : !mirage_block.stensor<16x32xf16> -> !mirage_block.stensor<16x32xf16>
    %b = add %m, %a : !mirage_block.stensor<16x32xf16>, !mirage_block.stensor<16x32xf16> -> !mirage_block.stensor<16x32xf16>
    %s = output_saver %b omap <> : !mirage_block.stensor<16x32xf16> -> tensor<16x32xf16>
    yield %s : tensor<16x32xf16>
  }
  return %o : tensor<16x32xf16>
}
