// RUN: mirage-opt %s --convert-mirage-block-to-gpu="stages=4 tma=false tensor-cores=false" | FileCheck %s
// RUN: mirage-opt %s --mirage-to-ptx-pipeline="chip=sm_80 stages=4" | FileCheck %s --check-prefix=PTX
// RUN: mirage-opt %s --convert-mirage-block-to-gpu=chip=sm_80 | FileCheck %s --check-prefix=DEFAULT
// RUN: mirage-opt %s --convert-mirage-block-to-gpu=stages=0 | FileCheck %s --check-prefix=NOSTAGES

// The fused RMSNorm + Linear: loop-invariant ops before the scf.for over the
// for-loop, per-iteration ops and accumulation steps inside it, ops on
// accumulated values after it. Accumulators are f32 in shared memory, but
// for the sums of tensor-core matmuls, which stay in registers across the
// loop (register-sums.mlir): the CHECK lines use the SIMT path
// (tensor-cores=false) to show the shared accumulators.

func.func @fused(%x: tensor<2x256xf16>, %w: tensor<256x64xf16>) -> tensor<2x64xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<2x256xf16>, %W = %w : tensor<256x64xf16>)
      -> tensor<2x64xf16> grid [4, 1, 1] block [128, 1, 1] forloop 8 {
    %xt = input_loader %X imap <> fmap 1 : tensor<2x256xf16> -> !mirage_block.stensor<2x32xf16>
    %wt = input_loader %W imap <x = 1> fmap 0 : tensor<256x64xf16> -> !mirage_block.stensor<32x16xf16>
    %mm = matmul %xt, %wt : !mirage_block.stensor<2x32xf16>, !mirage_block.stensor<32x16xf16> -> !mirage_block.stensor<2x16xf16>
    %acc = forloop_accum %mm sum : !mirage_block.stensor<2x16xf16> -> !mirage_block.stensor<2x16xf16>
    %rms = forloop_accum %xt rms_last : !mirage_block.stensor<2x32xf16> -> !mirage_block.stensor<2x1xf16>
    %y = div %acc, %rms : !mirage_block.stensor<2x16xf16>, !mirage_block.stensor<2x1xf16> -> !mirage_block.stensor<2x16xf16>
    %out = output_saver %y omap <x = 1> : !mirage_block.stensor<2x16xf16> -> tensor<2x64xf16>
    yield %out : tensor<2x64xf16>
  }
  return %o : tensor<2x64xf16>
}

// By default, 4 stages: the next three iterations' tiles are copied during
// this one (with cp.async on sm_80; sm_90a copies them with TMA, tma.mlir),
// and the 2-row f16 matmul runs on tensor cores (mma.sync, rows past the
// second zero), its sum in four f32 registers carried by the for-loop and
// stored to shared memory once after it.
// DEFAULT-LABEL: gpu.func @fused_kernel0
// DEFAULT: memref.view %{{.*}} to memref<2048xf16, #gpu.address_space<workgroup>>
// DEFAULT-COUNT-3: nvvm.cp.async.commit.group
// DEFAULT: %[[SUMS:.*]]:4 = scf.for %{{.*}} iter_args({{.*}}) -> (f32, f32, f32, f32) {
// DEFAULT-NEXT: nvvm.cp.async.wait.group 2
// DEFAULT: nvvm.mma.sync
// DEFAULT: scf.yield %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : f32, f32, f32, f32
// DEFAULT: llvm.insertelement %[[SUMS]]#0
// DEFAULT: llvm.insertelement %[[SUMS]]#1
// DEFAULT: llvm.store %{{.*}} : vector<2xf32>, !llvm.ptr<3>
// DEFAULT: gpu.return

// With stages=0 (below 2), nothing is staged.
// NOSTAGES-LABEL: gpu.func @fused_kernel0
// NOSTAGES-NOT: nvvm.cp.async
// With no pipeline barrier opening each iteration, the rms_last's step
// (lane partials, below) ends with one of its own.
// NOSTAGES: scf.for
// NOSTAGES: memref.store %{{.*}} : memref<128xf32, #gpu.address_space<workgroup>>
// NOSTAGES-NEXT: }
// NOSTAGES-NEXT: gpu.barrier
// NOSTAGES: gpu.return

// With stages=4, the loop-varying tiles (rows of 64 bytes, 16-byte aligned)
// are staged:
// copied by cp.async into shared memory up to 3 iterations ahead, in 4 stages
// (X: 4 x 2 x 32 halves, W: 4 x 32 x 16).
// CHECK-LABEL: gpu.func @fused_kernel0
// CHECK-DAG: %[[ACC:.*]] = memref.view %{{.*}} to memref<32xf32, #gpu.address_space<workgroup>>
// CHECK-DAG: %[[RMS:.*]] = memref.view %{{.*}} to memref<2xf32, #gpu.address_space<workgroup>>
// CHECK-DAG: %[[XS:.*]] = memref.view %{{.*}} to memref<256xf16, #gpu.address_space<workgroup>>
// CHECK-DAG: %[[WS:.*]] = memref.view %{{.*}} to memref<2048xf16, #gpu.address_space<workgroup>>
// CHECK-DAG: %[[MM:.*]] = memref.view %{{.*}} to memref<32xf16, #gpu.address_space<workgroup>>
// CHECK-DAG: %[[SLOTS:.*]] = memref.view %{{.*}} to memref<128xf32, #gpu.address_space<workgroup>>
// The division's result has no tile: it is saved directly (below).
// CHECK-NOT: memref.view
// Prologue: iterations 0, 1 and 2 start copying, one cp.async group each.
// CHECK: memref.extract_aligned_pointer_as_index %[[XS]]
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache =  cg : !llvm.ptr<3>, !llvm.ptr<1>
// CHECK: memref.extract_aligned_pointer_as_index %[[WS]]
// CHECK: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.commit.group
// CHECK: nvvm.cp.async.commit.group
// CHECK: nvvm.cp.async.commit.group
// Accumulators start at 0 (8 runs of 4 floats and 2 single elements: one
// guarded round each), and so does every thread's slot of the rms_last's
// lane partials (below), unguarded: one per thread.
// CHECK: arith.cmpi ult, %{{.*}}, %c8{{(_[0-9]+)?}} : index
// CHECK: scf.if
// CHECK: memref.extract_aligned_pointer_as_index %[[ACC]]
// CHECK: llvm.store %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK-NOT: arith.cmpi
// CHECK: memref.store %{{.*}}, %[[SLOTS]]
// CHECK: arith.cmpi ult, %{{.*}}, %c2{{(_[0-9]+)?}} : index
// CHECK: scf.if
// CHECK: memref.store %{{.*}}, %[[RMS]]
// CHECK: gpu.barrier
// The for-loop: wait for this iteration's group (at most 2 newer pending),
// barrier, then start iteration i + 3 into stage (i + 3) % 4 if it exists
// and commit a group (empty past the end).
// CHECK: %[[C8:.*]] = arith.constant 8 : index
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %[[C8]] step
// CHECK-NEXT: nvvm.cp.async.wait.group 2
// CHECK-NEXT: gpu.barrier
// CHECK: %[[AHEAD:.*]] = arith.addi %[[I]], %c3{{.*}} : index
// CHECK: %[[IN:.*]] = arith.cmpi ult, %[[AHEAD]], %c8{{.*}} : index
// CHECK: scf.if %[[IN]] {
// CHECK: arith.remui %[[AHEAD]], %c4{{.*}} : index
// CHECK: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.commit.group
// The matmul (SIMT): one k-loop per group of 8 consecutive result columns
// (2 rows x 2 groups: one guarded round of the threads), carrying four f32
// partial sums of each (one 16-byte load of the staged rhs row per k; the
// rhs stage, 32 x 16 halves = 1024 bytes, is swizzled: 32-byte rows), then
// one 16-byte store of the group.
// CHECK: arith.cmpi ult, %{{.*}}, %c4{{(_[0-9]+)?}} : index
// CHECK: scf.if
// CHECK: %{{.*}}:32 = scf.for {{.*}} step %c4{{.*}} iter_args({{.*}}) -> ({{(f32, )+}}f32)
// CHECK: memref.load %[[XS]]
// CHECK: memref.extract_aligned_pointer_as_index %[[WS]]
// CHECK: arith.xori
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xf16>
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: memref.extract_aligned_pointer_as_index %[[MM]]
// CHECK: llvm.store %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
// CHECK: gpu.barrier
// sum: acc += mm, 4 elements at a time.
// CHECK: memref.extract_aligned_pointer_as_index %[[ACC]]
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
// CHECK: memref.extract_aligned_pointer_as_index %[[MM]]
// CHECK: llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<3> -> vector<4xf16>
// CHECK-COUNT-4: arith.addf
// CHECK: llvm.store %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
// rms_last keeps lane partials: each row's 4 runs of 8 halves take a lane
// each (8 (row, lane) pairs, thread p the pair p), and a thread adds its
// run's squares to its own slot, with no barrier: the next iteration's
// pipeline barrier comes first.
// CHECK: arith.cmpi ult, %{{.*}}, %c8{{(_[0-9]+)?}} : index
// CHECK: scf.if
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xf16>
// CHECK-COUNT-8: arith.mulf
// CHECK: memref.load %[[SLOTS]]
// CHECK: memref.store %{{.*}}, %[[SLOTS]]
// CHECK-NEXT: }
// CHECK-NEXT: }
// After the loop: the acc's rounding to f16 (two values at a time), then,
// past a barrier, one thread per row adds its 4 lanes' slots (pairwise),
// and rms = sqrt(sum / (8 * 32)).
// CHECK: memref.extract_aligned_pointer_as_index %[[ACC]]
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> vector<4xf32>
// CHECK-COUNT-2: nvvm.convert.f32x2.to.f16x2
// CHECK: llvm.store %{{.*}} : vector<4xf32>, !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK: arith.cmpi ult, %{{.*}}, %c2{{(_[0-9]+)?}} : index
// CHECK-COUNT-4: memref.load %[[SLOTS]]
// CHECK: memref.load %[[RMS]]
// CHECK: memref.store %{{.*}}, %[[RMS]]
// CHECK: gpu.barrier
// CHECK: memref.load %[[RMS]]
// CHECK: arith.constant 2.560000e+02 : f32
// CHECK: arith.divf
// CHECK: math.sqrt
// CHECK: memref.store %{{.*}}, %[[RMS]]
// The division reads both accumulators, 4 elements of acc and the one rms
// of their row, broadcast along columns; its one use being the output
// saver, it stores its 4 halves straight to the global output (%arg2): no
// shared tile, no copy.
// CHECK: memref.extract_aligned_pointer_as_index %[[ACC]]
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> vector<4xf32>
// CHECK: memref.load %[[RMS]]
// CHECK-COUNT-4: arith.divf
// CHECK-NOT: !llvm.ptr<3>
// CHECK: memref.extract_aligned_pointer_as_index %arg2
// CHECK-NOT: !llvm.ptr<3>
// CHECK: llvm.store %{{.*}} : vector<4xf16>, !llvm.ptr<1>
// CHECK-NOT: !llvm.ptr<3>
// CHECK: gpu.return

// The pipeline in PTX (sm_80; tabs appear as \09 in the printed binary).
// PTX: cp.async.cg.shared.global
// PTX: cp.async.commit_group;
// PTX: cp.async.wait_group \092;
// PTX: bar.sync \090;
