// RUN: mirage-opt %s --split-input-file --convert-mirage-block-to-gpu | FileCheck %s
// RUN: mirage-opt %s --split-input-file --convert-mirage-block-to-gpu=tensor-cores=false | FileCheck %s --check-prefix=SIMT
// RUN: mirage-opt %s --split-input-file --mirage-to-ptx-pipeline=chip=sm_80 | FileCheck %s --check-prefix=PTX
// RUN: mirage-opt %s --split-input-file --mirage-to-ptx-pipeline=chip=sm_90a | FileCheck %s --check-prefix=PTX
// RUN: mirage-opt %s --split-input-file --convert-mirage-block-to-gpu=stages=0 | FileCheck %s --check-prefix=INPLACE

// f16 matmuls (of any number of rows) run on tensor cores: each warp takes
// 16x8 result tiles (column tiles fastest) and sums the contracting
// dimension in 16-element steps of mma.sync.m16n8k16 (f32 sums), up to 4
// steps per loop iteration. The operands, loop-invariant tiles that the
// matmul reads repeatedly, are preloaded into shared memory first (cp.async,
// one group, waited for before the matmul), swizzled where they are whole
// 1024-byte blocks (swizzle.mlir). An operand in shared memory whose rows
// are 16-byte aligned chunks of 8 f16 has its fragments read by ldmatrix,
// once per step: A by one ldmatrix.x4 (lane l addresses row l % 16 of the
// row tile at column k + (l / 16) * 8; the four i32 registers, bitcast to
// vector<2xf16>, are a0..a3), B by one ldmatrix.x2.trans (lane l addresses
// row k + l % 16 at the column tile's first column). An operand read in
// place from global memory (in_place, stages=0) keeps scalar loads: A pairs
// consecutive along a row (one 32-bit load), B pairs two rows of one column
// (two 16-bit loads).

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
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %c64{{.*}} iter_args(%{{.*}} = %cst, %{{.*}} = %cst, %{{.*}} = %cst, %{{.*}} = %cst) -> (f32, f32, f32, f32)
// A: row l % 16 (no clamp: rows are whole tiles), column k + (l / 16) * 8.
// CHECK: %[[AROW:.*]] = arith.remui %[[LANE]], %c16
// CHECK: arith.addi %{{.*}}, %[[AROW]]
// CHECK: %[[AHALF:.*]] = arith.divui %[[LANE]], %c16
// CHECK: %[[AOFF:.*]] = arith.muli %[[AHALF]], %c8
// CHECK: arith.addi %[[K]], %[[AOFF]]
// CHECK: memref.extract_aligned_pointer_as_index %[[XS]]
// CHECK: arith.xori
// CHECK: %[[A:.*]] = nvvm.ldmatrix %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, num = 4 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK: %[[A0I:.*]] = llvm.extractvalue %[[A]][0]
// CHECK: %[[A0:.*]] = llvm.bitcast %[[A0I]] : i32 to vector<2xf16>
// CHECK: %[[A1I:.*]] = llvm.extractvalue %[[A]][1]
// CHECK: %[[A1:.*]] = llvm.bitcast %[[A1I]] : i32 to vector<2xf16>
// CHECK: %[[A2I:.*]] = llvm.extractvalue %[[A]][2]
// CHECK: %[[A2:.*]] = llvm.bitcast %[[A2I]] : i32 to vector<2xf16>
// CHECK: %[[A3I:.*]] = llvm.extractvalue %[[A]][3]
// CHECK: %[[A3:.*]] = llvm.bitcast %[[A3I]] : i32 to vector<2xf16>
// No row past the end: no select.
// CHECK-NOT: arith.select
// B: row k + l % 16, the column tile's first column, transposed.
// CHECK: %[[BROW:.*]] = arith.remui %[[LANE]], %c16
// CHECK: arith.addi %[[K]], %[[BROW]]
// CHECK: memref.extract_aligned_pointer_as_index %[[WS]]
// CHECK: arith.xori
// CHECK: %[[B:.*]] = nvvm.ldmatrix %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<col>, num = 2 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32)>
// CHECK: %[[B0I:.*]] = llvm.extractvalue %[[B]][0]
// CHECK: %[[B0:.*]] = llvm.bitcast %[[B0I]] : i32 to vector<2xf16>
// CHECK: %[[B1I:.*]] = llvm.extractvalue %[[B]][1]
// CHECK: %[[B1:.*]] = llvm.bitcast %[[B1I]] : i32 to vector<2xf16>
// CHECK-NOT: arith.select
// CHECK: nvvm.mma.sync A[%[[A0]], %[[A1]], %[[A2]], %[[A3]]]  B[%[[B0]], %[[B1]]]  C[{{.*}}] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 16, n = 8, k = 16>}
// The other 3 steps likewise: no scalar fragment loads in the loop.
// CHECK-NOT: {{llvm.load|memref.load}}
// CHECK: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<row>, num = 4
// CHECK-NOT: {{llvm.load|memref.load}}
// CHECK: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<col>, num = 2
// CHECK-NOT: {{llvm.load|memref.load}}
// CHECK: nvvm.mma.sync
// CHECK-NOT: {{llvm.load|memref.load}}
// CHECK: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<row>, num = 4
// CHECK-NOT: {{llvm.load|memref.load}}
// CHECK: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<col>, num = 2
// CHECK-NOT: {{llvm.load|memref.load}}
// CHECK: nvvm.mma.sync
// CHECK-NOT: {{llvm.load|memref.load}}
// CHECK: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<row>, num = 4
// CHECK-NOT: {{llvm.load|memref.load}}
// CHECK: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<col>, num = 2
// CHECK-NOT: {{llvm.load|memref.load}}
// CHECK: nvvm.mma.sync
// CHECK-NOT: {{llvm.load|memref.load|nvvm.mma.sync}}
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
// PTX: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX: ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX-NOT: ld.shared.b32
// PTX: ret;
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

// 12 rows: rows 12-15 of the tile are not stored. The lanes addressing
// rows 12-15 for ldmatrix read row 11 (clamped); the product rows they make
// are past the end and dropped, so the registers go to mma.sync as loaded.
// CHECK-LABEL: gpu.func @partial_rows_kernel0
// CHECK: scf.for
// CHECK: scf.for
// CHECK: %[[ROW:.*]] = arith.minui %{{.*}}, %c11
// CHECK: arith.muli %[[ROW]], %c32
// CHECK: %[[A:.*]] = nvvm.ldmatrix %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, num = 4 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>}
// CHECK: %[[A0I:.*]] = llvm.extractvalue %[[A]][0]
// CHECK: %[[A0:.*]] = llvm.bitcast %[[A0I]] : i32 to vector<2xf16>
// CHECK: %[[A1I:.*]] = llvm.extractvalue %[[A]][1]
// CHECK: %[[A1:.*]] = llvm.bitcast %[[A1I]] : i32 to vector<2xf16>
// CHECK: %[[A2I:.*]] = llvm.extractvalue %[[A]][2]
// CHECK: %[[A2:.*]] = llvm.bitcast %[[A2I]] : i32 to vector<2xf16>
// CHECK: %[[A3I:.*]] = llvm.extractvalue %[[A]][3]
// CHECK: %[[A3:.*]] = llvm.bitcast %[[A3I]] : i32 to vector<2xf16>
// CHECK-NOT: arith.select
// CHECK: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<col>, num = 2
// CHECK: nvvm.mma.sync A[%[[A0]], %[[A1]], %[[A2]], %[[A3]]]
// CHECK: scf.yield
// CHECK-NOT: scf.if
// CHECK: llvm.store
// CHECK: scf.if
// CHECK: llvm.store
// PTX-LABEL: .visible .entry partial_rows_kernel0(
// PTX: min.u64
// PTX: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX-NOT: selp.b32
// PTX: ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16
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

// 8 rows: the upper half of the tile is inside (no guard), and only the
// upper half is stored; a batched matmul takes (batch, row tile, column
// tile) in turn. ldmatrix.x4 still reads the lower half (rows 8-15 clamped
// to row 7): the product rows it makes are dropped, so no register is
// selected.
// CHECK-LABEL: gpu.func @batched_kernel0
// CHECK: scf.for %{{.*}} = %{{.*}} to %c4{{.*}} step %c1
// CHECK: arith.minui %{{.*}}, %c7
// CHECK: %[[A:.*]] = nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<row>, num = 4
// CHECK-NOT: arith.select
// CHECK: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<col>, num = 2
// CHECK: nvvm.mma.sync A[%{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}]
// CHECK: scf.yield
// CHECK-NOT: scf.if
// CHECK: llvm.store
// CHECK-NOT: llvm.store
// CHECK: gpu.barrier
// PTX-LABEL: .visible .entry batched_kernel0(
// PTX: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX-NOT: selp.b32
// PTX-COUNT-4: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
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

// Fewer than 8 rows run on tensor cores too: 4 rows, ldmatrix reads row 3
// for rows 4-15 (clamped), whose product rows are dropped; only rows 0-3
// are stored.
// CHECK-LABEL: gpu.func @few_rows_kernel0
// CHECK: scf.for
// CHECK: scf.for {{.*}} -> (f32, f32, f32, f32)
// CHECK: %[[ROW:.*]] = arith.minui %{{.*}}, %c3
// CHECK: arith.muli %[[ROW]], %c32
// CHECK: %[[A:.*]] = nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<row>, num = 4
// CHECK: %[[A0I:.*]] = llvm.extractvalue %[[A]][0]
// CHECK: %[[A0:.*]] = llvm.bitcast %[[A0I]] : i32 to vector<2xf16>
// CHECK-NOT: arith.select
// CHECK: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<col>, num = 2
// CHECK: nvvm.mma.sync A[%[[A0]], %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}]
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
// PTX: min.u64
// PTX: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX-NOT: selp.b32
// PTX: ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16
// PTX-COUNT-2: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
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
// CHECK: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<row>, num = 4
// CHECK: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<col>, num = 2
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

// -----

// Loop-varying operands are staged in shared memory by default (TMA on
// sm_90a, tma.mlir) and read from their stage by ldmatrix; with stages=0
// they are read in place from global memory, where ldmatrix cannot reach:
// A pairs by one 32-bit load each, B pairs by two 16-bit loads.
// CHECK-LABEL: gpu.func @in_place_kernel0
// CHECK-DAG: %[[XS:.*]] = memref.view %{{.*}} to memref<1024xf16, #gpu.address_space<workgroup>>
// CHECK-DAG: %[[WS:.*]] = memref.view %{{.*}} to memref<512xf16, #gpu.address_space<workgroup>>
// CHECK: scf.for {{.*}} -> (f32, f32, f32, f32)
// CHECK: scf.for {{.*}} step %c32{{.*}} -> (f32, f32, f32, f32)
// CHECK: memref.extract_aligned_pointer_as_index %[[XS]]
// CHECK: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<row>, num = 4
// CHECK: memref.extract_aligned_pointer_as_index %[[WS]]
// CHECK: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<col>, num = 2
// CHECK: nvvm.mma.sync
// CHECK: scf.yield
// INPLACE-LABEL: gpu.func @in_place_kernel0
// INPLACE-NOT: nvvm.cp.async
// INPLACE: scf.for {{.*}} -> (f32, f32, f32, f32)
// INPLACE: scf.for {{.*}} step %c32{{.*}} -> (f32, f32, f32, f32)
// INPLACE-NOT: nvvm.ldmatrix
// INPLACE: memref.extract_aligned_pointer_as_index %arg0
// INPLACE: %[[A0:.*]] = llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<1> -> vector<2xf16>
// INPLACE: %[[A1:.*]] = llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<1> -> vector<2xf16>
// INPLACE: %[[A2:.*]] = llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<1> -> vector<2xf16>
// INPLACE: %[[A3:.*]] = llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<1> -> vector<2xf16>
// INPLACE-NOT: nvvm.ldmatrix
// INPLACE-COUNT-2: memref.load %arg1
// INPLACE: llvm.insertelement %{{.*}}[%c0_i32{{.*}}]
// INPLACE: %[[B0:.*]] = llvm.insertelement %{{.*}}[%c1_i32{{.*}}]
// INPLACE-COUNT-2: memref.load %arg1
// INPLACE: llvm.insertelement %{{.*}}[%c0_i32{{.*}}]
// INPLACE: %[[B1:.*]] = llvm.insertelement %{{.*}}[%c1_i32{{.*}}]
// INPLACE-NOT: nvvm.ldmatrix
// INPLACE: nvvm.mma.sync A[%[[A0]], %[[A1]], %[[A2]], %[[A3]]]  B[%[[B0]], %[[B1]]]
// INPLACE-NOT: nvvm.ldmatrix
// INPLACE: scf.yield
func.func @in_place(%x: tensor<16x64xf16>, %w: tensor<64x8xf16>) -> tensor<16x8xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<16x64xf16>, %W = %w : tensor<64x8xf16>) -> tensor<16x8xf16>
      grid [1, 1, 1] block [32, 1, 1] forloop 2 {
    %xt = input_loader %X imap <> fmap 1 : tensor<16x64xf16> -> !mirage_block.stensor<16x32xf16>
    %wt = input_loader %W imap <> fmap 0 : tensor<64x8xf16> -> !mirage_block.stensor<32x8xf16>
    %mm = matmul %xt, %wt : !mirage_block.stensor<16x32xf16>, !mirage_block.stensor<32x8xf16> -> !mirage_block.stensor<16x8xf16>
    %acc = forloop_accum %mm sum : !mirage_block.stensor<16x8xf16> -> !mirage_block.stensor<16x8xf16>
    %s = output_saver %acc omap <> : !mirage_block.stensor<16x8xf16> -> tensor<16x8xf16>
    yield %s : tensor<16x8xf16>
  }
  return %o : tensor<16x8xf16>
}
