// RUN: mirage-opt %s --split-input-file --convert-mirage-block-to-gpu | FileCheck %s
// RUN: mirage-opt %s --split-input-file --convert-mirage-block-to-gpu=tensor-cores=false | FileCheck %s --check-prefix=SIMT
// RUN: mirage-opt %s --split-input-file --mirage-to-ptx-pipeline=chip=sm_80 | FileCheck %s --check-prefix=PTX
// RUN: mirage-opt %s --split-input-file --mirage-to-ptx-pipeline=chip=sm_90a | FileCheck %s --check-prefix=PTX

// f16 matmuls (of any number of rows) run on tensor cores: each warp takes
// 16x8 result tiles (column tiles fastest) and sums the contracting
// dimension in 16-element steps of mma.sync.m16n8k16 (f32 sums), up to 4
// steps per loop iteration. A pairs are consecutive along a row (one 32-bit
// load); B pairs are two rows of one column (two 16-bit loads). The
// operands, loop-invariant tiles that the matmul reads repeatedly, are
// preloaded into shared memory first (cp.async, one group, waited for before
// the matmul), swizzled where they are whole 1024-byte blocks (swizzle.mlir).

// 16 rows, 2 column tiles, 2 warps: one tile per warp, 4 steps in one
// iteration. X (16x64) and W's 64x16 block are 2048 bytes each: swizzled
// (128- and 32-byte rows).
// CHECK-LABEL: gpu.func @whole_rows_kernel0
// CHECK: %[[XS:.*]] = memref.view %{{.*}} to memref<1024xf16, #gpu.address_space<workgroup>>
// CHECK: %[[WS:.*]] = memref.view %{{.*}} to memref<1024xf16, #gpu.address_space<workgroup>>
// CHECK: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.commit.group
// CHECK-NEXT: nvvm.cp.async.wait.group 0
// CHECK-NEXT: gpu.barrier
// CHECK: %[[LANE:.*]] = arith.remui %{{.*}}, %c32
// CHECK: %[[WARP:.*]] = arith.divui %{{.*}}, %c32
// CHECK: scf.for %{{.*}} = %[[WARP]] to %c2{{.*}} step %c2
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c64{{.*}} iter_args(%{{.*}} = %cst, %{{.*}} = %cst, %{{.*}} = %cst, %{{.*}} = %cst) -> (f32, f32, f32, f32)
// CHECK: memref.extract_aligned_pointer_as_index %[[XS]]
// CHECK: arith.xori
// CHECK-COUNT-4: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> vector<2xf16>
// CHECK-COUNT-4: memref.load %[[WS]]
// CHECK: nvvm.mma.sync A[{{.*}}] B[{{.*}}] C[{{.*}}] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 16, n = 8, k = 16>}
// CHECK-COUNT-3: nvvm.mma.sync
// CHECK: scf.yield
// No row is past the end: stores without a guard.
// CHECK-NOT: scf.if
// CHECK: llvm.store %{{.*}} {alignment = 4 : i64} : vector<2xf16>, !llvm.ptr<3>
// CHECK: llvm.store %{{.*}} {alignment = 4 : i64} : vector<2xf16>, !llvm.ptr<3>
// CHECK: gpu.barrier
// SIMT-LABEL: gpu.func @whole_rows_kernel0
// SIMT-NOT: nvvm.mma.sync
// SIMT: gpu.return
// PTX-LABEL: .visible .entry whole_rows_kernel0(
// PTX: cp.async.cg.shared.global
// PTX: ld.shared.b32
// PTX: ld.shared.b16
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
func.func @whole_rows(%x: tensor<16x64xf16>, %w: tensor<64x32xf16>) -> tensor<16x32xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<16x64xf16>, %W = %w : tensor<64x32xf16>) -> tensor<16x32xf16>
      grid [2, 1, 1] block [64, 1, 1] forloop 1 {
    %xt = input_loader %X imap <> : tensor<16x64xf16> -> !mirage_block.stensor<16x64xf16>
    %wt = input_loader %W imap <x = 1> : tensor<64x32xf16> -> !mirage_block.stensor<64x16xf16>
    %y = matmul %xt, %wt : !mirage_block.stensor<16x64xf16>, !mirage_block.stensor<64x16xf16> -> !mirage_block.stensor<16x16xf16>
    %s = output_saver %y omap <x = 1> : !mirage_block.stensor<16x16xf16> -> tensor<16x32xf16>
    yield %s : tensor<16x32xf16>
  }
  return %o : tensor<16x32xf16>
}

// -----

// 12 rows: rows 12-15 of the tile read zeros (a clamped row, then a select)
// and are not stored; rows 0-7 need no guard.
// CHECK-LABEL: gpu.func @partial_rows_kernel0
// CHECK: scf.for
// CHECK: scf.for
// CHECK: %[[IN:.*]] = arith.cmpi ult, %{{.*}}, %c12
// CHECK: %[[ROW:.*]] = arith.minui %{{.*}}, %c11
// CHECK: %[[PAIR:.*]] = llvm.load %{{.*}} -> vector<2xf16>
// CHECK: arith.select %[[IN]], %[[PAIR]], %cst
// CHECK: nvvm.mma.sync
// CHECK: scf.yield
// CHECK-NOT: scf.if
// CHECK: llvm.store
// CHECK: scf.if
// CHECK: llvm.store
// PTX-LABEL: .visible .entry partial_rows_kernel0(
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
func.func @partial_rows(%x: tensor<12x32xf16>, %w: tensor<32x8xf16>) -> tensor<12x8xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<12x32xf16>, %W = %w : tensor<32x8xf16>) -> tensor<12x8xf16>
      grid [1, 1, 1] block [32, 1, 1] forloop 1 {
    %xt = input_loader %X imap <> : tensor<12x32xf16> -> !mirage_block.stensor<12x32xf16>
    %wt = input_loader %W imap <> : tensor<32x8xf16> -> !mirage_block.stensor<32x8xf16>
    %y = matmul %xt, %wt : !mirage_block.stensor<12x32xf16>, !mirage_block.stensor<32x8xf16> -> !mirage_block.stensor<12x8xf16>
    %s = output_saver %y omap <> : !mirage_block.stensor<12x8xf16> -> tensor<12x8xf16>
    yield %s : tensor<12x8xf16>
  }
  return %o : tensor<12x8xf16>
}

// -----

// 8 rows: the upper half of the tile is inside (no guard), the lower half
// all zeros (no load), and only the upper half is stored; a batched matmul takes (batch, row tile, column
// tile) in turn.
// CHECK-LABEL: gpu.func @batched_kernel0
// CHECK: scf.for %{{.*}} = %{{.*}} to %c4{{.*}} step %c1
// CHECK-NOT: arith.select
// CHECK: nvvm.mma.sync A[%{{.*}}, %cst{{.*}}, %{{.*}}, %cst{{.*}}]
// CHECK: scf.yield
// CHECK-NOT: scf.if
// CHECK: llvm.store
// CHECK-NOT: llvm.store
// CHECK: gpu.barrier
func.func @batched(%x: tensor<2x8x16xf16>, %w: tensor<2x16x16xf16>) -> tensor<2x8x16xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<2x8x16xf16>, %W = %w : tensor<2x16x16xf16>) -> tensor<2x8x16xf16>
      grid [1, 1, 1] block [32, 1, 1] forloop 1 {
    %xt = input_loader %X imap <> : tensor<2x8x16xf16> -> !mirage_block.stensor<2x8x16xf16>
    %wt = input_loader %W imap <> : tensor<2x16x16xf16> -> !mirage_block.stensor<2x16x16xf16>
    %y = matmul %xt, %wt : !mirage_block.stensor<2x8x16xf16>, !mirage_block.stensor<2x16x16xf16> -> !mirage_block.stensor<2x8x16xf16>
    %s = output_saver %y omap <> : !mirage_block.stensor<2x8x16xf16> -> tensor<2x8x16xf16>
    yield %s : tensor<2x8x16xf16>
  }
  return %o : tensor<2x8x16xf16>
}

// -----

// Fewer than 8 rows run on tensor cores too: 4 rows, rows 4-15 of the tile
// zero (rows 4-7 clamped to row 3, then selected away; rows 8-15 not
// loaded), only rows 0-3 stored.
// CHECK-LABEL: gpu.func @few_rows_kernel0
// CHECK: scf.for
// CHECK: scf.for {{.*}} -> (f32, f32, f32, f32)
// CHECK: %[[IN:.*]] = arith.cmpi ult, %{{.*}}, %c4
// CHECK: %[[ROW:.*]] = arith.minui %{{.*}}, %c3
// CHECK: %[[PAIR:.*]] = llvm.load %{{.*}} -> vector<2xf16>
// CHECK: %[[A0:.*]] = arith.select %[[IN]], %[[PAIR]], %cst
// CHECK: nvvm.mma.sync A[%[[A0]], %cst{{[_0-9]*}}, %{{[0-9]+}}, %cst{{[_0-9]*}}]
// CHECK: scf.yield
// CHECK: %[[STORED:.*]] = arith.cmpi ult, %{{.*}}, %c4
// CHECK: scf.if %[[STORED]]
// CHECK: llvm.store
// CHECK-NOT: llvm.store
// CHECK: gpu.barrier
// SIMT-LABEL: gpu.func @few_rows_kernel0
// SIMT-NOT: nvvm.mma.sync
// SIMT: gpu.return
// PTX-LABEL: .visible .entry few_rows_kernel0(
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
func.func @few_rows(%a: tensor<4x32xf16>, %b: tensor<32x8xf16>) -> tensor<4x8xf16> {
  %o = mirage_kernel.graph_def(%A = %a : tensor<4x32xf16>, %B = %b : tensor<32x8xf16>) -> tensor<4x8xf16>
      grid [1, 1, 1] block [32, 1, 1] forloop 1 {
    %at = input_loader %A imap <> : tensor<4x32xf16> -> !mirage_block.stensor<4x32xf16>
    %bt = input_loader %B imap <> : tensor<32x8xf16> -> !mirage_block.stensor<32x8xf16>
    %y = matmul %at, %bt : !mirage_block.stensor<4x32xf16>, !mirage_block.stensor<32x8xf16> -> !mirage_block.stensor<4x8xf16>
    %s = output_saver %y omap <> : !mirage_block.stensor<4x8xf16> -> tensor<4x8xf16>
    yield %s : tensor<4x8xf16>
  }
  return %o : tensor<4x8xf16>
}

// -----

// SIMT sums instead: f32 operands, a contracting dimension that is not a
// multiple of 16.
// CHECK-LABEL: gpu.func @simt_kernel0
// CHECK-NOT: nvvm.mma.sync
// CHECK: gpu.return
// CHECK-LABEL: gpu.func @simt_kernel1
// CHECK-NOT: nvvm.mma.sync
// CHECK: gpu.return
func.func @simt(%c: tensor<16x32xf32>, %d: tensor<32x8xf32>, %e: tensor<16x24xf16>, %f: tensor<24x8xf16>) -> (tensor<16x8xf32>, tensor<16x8xf16>) {
  %o2 = mirage_kernel.graph_def(%C = %c : tensor<16x32xf32>, %D = %d : tensor<32x8xf32>) -> tensor<16x8xf32>
      grid [1, 1, 1] block [32, 1, 1] forloop 1 {
    %ct = input_loader %C imap <> : tensor<16x32xf32> -> !mirage_block.stensor<16x32xf32>
    %dt = input_loader %D imap <> : tensor<32x8xf32> -> !mirage_block.stensor<32x8xf32>
    %y = matmul %ct, %dt : !mirage_block.stensor<16x32xf32>, !mirage_block.stensor<32x8xf32> -> !mirage_block.stensor<16x8xf32>
    %s = output_saver %y omap <> : !mirage_block.stensor<16x8xf32> -> tensor<16x8xf32>
    yield %s : tensor<16x8xf32>
  }
  %o3 = mirage_kernel.graph_def(%E = %e : tensor<16x24xf16>, %F = %f : tensor<24x8xf16>) -> tensor<16x8xf16>
      grid [1, 1, 1] block [32, 1, 1] forloop 1 {
    %et = input_loader %E imap <> : tensor<16x24xf16> -> !mirage_block.stensor<16x24xf16>
    %ft = input_loader %F imap <> : tensor<24x8xf16> -> !mirage_block.stensor<24x8xf16>
    %y = matmul %et, %ft : !mirage_block.stensor<16x24xf16>, !mirage_block.stensor<24x8xf16> -> !mirage_block.stensor<16x8xf16>
    %s = output_saver %y omap <> : !mirage_block.stensor<16x8xf16> -> tensor<16x8xf16>
    yield %s : tensor<16x8xf16>
  }
  return %o2, %o3 : tensor<16x8xf32>, tensor<16x8xf16>
}

// -----

// One tile, four warps, four 16-element steps: each warp sums one slice of
// the contracting dimension into f32 partials in shared memory, then one
// thread per element adds them in slice order (128 elements, 128 threads:
// one round, no loop). The partials follow the preloaded operands (2048 and
// 1024 bytes) and the result (256 bytes).
// CHECK-LABEL: gpu.func @split_k_kernel0
// CHECK: %[[PARTIALS:.*]] = memref.view %{{.*}}[%c3328{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<512xf32, #gpu.address_space<workgroup>>
// CHECK: nvvm.cp.async.wait.group 0
// CHECK: scf.for %{{.*}} = %{{.*}} to %c4{{.*}} step %c4
// CHECK: %[[SLICE:.*]] = arith.divui %{{.*}}, %c1
// CHECK: %[[FIRST:.*]] = arith.muli %[[SLICE]], %c16
// CHECK: %[[LAST:.*]] = arith.addi %[[FIRST]], %c16
// CHECK: scf.for %{{.*}} = %[[FIRST]] to %[[LAST]] step %c16
// CHECK: nvvm.mma.sync
// CHECK-NOT: nvvm.mma.sync
// CHECK: scf.yield
// CHECK: memref.extract_aligned_pointer_as_index %[[PARTIALS]]
// CHECK: llvm.store %{{.*}} : vector<2xf32>, !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK-NOT: scf.for
// CHECK-COUNT-4: memref.load %[[PARTIALS]]
// CHECK: arith.truncf
// CHECK: gpu.barrier
// PTX-LABEL: .visible .entry split_k_kernel0(
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
func.func @split_k(%x: tensor<16x64xf16>, %w: tensor<64x8xf16>) -> tensor<16x8xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<16x64xf16>, %W = %w : tensor<64x8xf16>) -> tensor<16x8xf16>
      grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    %xt = input_loader %X imap <> : tensor<16x64xf16> -> !mirage_block.stensor<16x64xf16>
    %wt = input_loader %W imap <> : tensor<64x8xf16> -> !mirage_block.stensor<64x8xf16>
    %y = matmul %xt, %wt : !mirage_block.stensor<16x64xf16>, !mirage_block.stensor<64x8xf16> -> !mirage_block.stensor<16x8xf16>
    %s = output_saver %y omap <> : !mirage_block.stensor<16x8xf16> -> tensor<16x8xf16>
    yield %s : tensor<16x8xf16>
  }
  return %o : tensor<16x8xf16>
}
