// RUN: mirage-opt %s --split-input-file --convert-mirage-block-to-gpu="tensor-cores=false row-programs=false" | FileCheck %s
// RUN: mirage-opt %s --split-input-file --mirage-to-ptx-pipeline="chip=sm_90a tensor-cores=false row-programs=false" | FileCheck %s --check-prefix=PTX

// Row programs are off (row-programs=false): these kernels show the
// op-by-op lowering; row-program.mlir has the bodies that run in registers.

// Sums read groups of consecutive elements along the last dimension with one
// aligned vector access of up to 16 bytes: a matmul's rhs rows, a
// reduction's input rows. Each element of a group keeps its own four
// partials, so every result is summed in the same order as one element at a
// time. The matmuls here run on the SIMT path (tensor-cores=false: the f16
// matmul of @rows8 would otherwise run on mma.sync). Loop-invariant tiles
// that a matmul reads, or that several ops read, are preloaded into shared
// memory (cp.async) before the ops, which then read them there.

// The f16 rhs, a 32x32 block of W at a column offset that is a multiple of
// 8 elements, is preloaded into shared memory (swizzled, a 2048-byte matmul
// operand with 64-byte rows: every access XORs its position): 16-byte loads
// (ld.shared.v4.b32) into 8 sums of 4 partials, 16-byte stores of the result.
// CHECK-LABEL: gpu.func @rows8_kernel0
// CHECK: %[[XS:.*]] = memref.view %{{.*}} to memref<64xf16, #gpu.address_space<workgroup>>
// CHECK: %[[WS:.*]] = memref.view %{{.*}} to memref<1024xf16, #gpu.address_space<workgroup>>
// CHECK: %[[MM:.*]] = memref.view %{{.*}} to memref<64xf16, #gpu.address_space<workgroup>>
// CHECK: memref.extract_aligned_pointer_as_index %[[WS]]
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache =  cg
// CHECK: nvvm.cp.async.commit.group
// CHECK-NEXT: nvvm.cp.async.wait.group 0
// CHECK-NEXT: gpu.barrier
// CHECK: %{{.*}}:32 = scf.for {{.*}} iter_args
// CHECK: memref.load %[[XS]]
// CHECK: %[[BASE:.*]] = memref.extract_aligned_pointer_as_index %[[WS]]
// CHECK: %[[SHARED:.*]] = llvm.inttoptr %{{.*}} : i64 to !llvm.ptr<3>
// CHECK: %[[SWIZZLED:.*]] = arith.xori
// CHECK: %[[OFFSET:.*]] = arith.index_cast %[[SWIZZLED]] : index to i64
// CHECK: %[[PTR:.*]] = llvm.getelementptr %[[SHARED]][%[[OFFSET]]] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f16
// CHECK: %[[V:.*]] = llvm.load %[[PTR]] {alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xf16>
// CHECK-COUNT-8: llvm.extractelement %[[V]]
// CHECK-COUNT-8: arith.mulf
// CHECK: scf.yield
// (p0 + p1) + (p2 + p3) for each of the 8 sums.
// CHECK-COUNT-24: arith.addf
// CHECK: memref.extract_aligned_pointer_as_index %[[MM]]
// CHECK: llvm.store %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
// CHECK: gpu.barrier
// PTX-LABEL: .visible .entry rows8_kernel0(
// PTX: cp.async.cg.shared.global
// PTX: ld.shared.v4.b32
// PTX: st.shared.v4.b32
func.func @rows8(%x: tensor<2x32xf16>, %w: tensor<32x128xf16>) -> tensor<2x128xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<2x32xf16>, %W = %w : tensor<32x128xf16>) -> tensor<2x128xf16>
      grid [4, 1, 1] block [32, 1, 1] forloop 1 {
    %xt = input_loader %X imap <> : tensor<2x32xf16> -> !mirage_block.stensor<2x32xf16>
    %wt = input_loader %W imap <x = 1> : tensor<32x128xf16> -> !mirage_block.stensor<32x32xf16>
    %y = matmul %xt, %wt : !mirage_block.stensor<2x32xf16>, !mirage_block.stensor<32x32xf16> -> !mirage_block.stensor<2x32xf16>
    %s = output_saver %y omap <x = 1> : !mirage_block.stensor<2x32xf16> -> tensor<2x128xf16>
    yield %s : tensor<2x128xf16>
  }
  return %o : tensor<2x128xf16>
}

// -----

// A block offset of 4 columns allows only 8-byte loads of 4 halves (rows of
// 8 bytes are not whole 16-byte chunks: the rhs is read in place, from
// global memory).
// CHECK-LABEL: gpu.func @rows4_kernel0
// CHECK: %{{.*}}:16 = scf.for {{.*}} iter_args
// CHECK: llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<1> -> vector<4xf16>
// CHECK-NOT: vector<8xf16>
// CHECK: gpu.return
func.func @rows4(%x: tensor<2x64xf16>, %w: tensor<64x16xf16>) -> tensor<2x16xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<2x64xf16>, %W = %w : tensor<64x16xf16>) -> tensor<2x16xf16>
      grid [4, 1, 1] block [32, 1, 1] forloop 1 {
    %xt = input_loader %X imap <> : tensor<2x64xf16> -> !mirage_block.stensor<2x64xf16>
    %wt = input_loader %W imap <x = 1> : tensor<64x16xf16> -> !mirage_block.stensor<64x4xf16>
    %y = matmul %xt, %wt : !mirage_block.stensor<2x64xf16>, !mirage_block.stensor<64x4xf16> -> !mirage_block.stensor<2x4xf16>
    %s = output_saver %y omap <x = 1> : !mirage_block.stensor<2x4xf16> -> tensor<2x16xf16>
    yield %s : tensor<2x16xf16>
  }
  return %o : tensor<2x16xf16>
}

// -----

// An odd row length allows no vector access: one element at a time.
// CHECK-LABEL: gpu.func @odd_kernel0
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (f32, f32, f32, f32)
// CHECK: memref.load %arg1
// CHECK-NOT: llvm.load
// CHECK: gpu.return
func.func @odd(%x: tensor<2x64xf16>, %w: tensor<64x6xf16>) -> tensor<2x6xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<2x64xf16>, %W = %w : tensor<64x6xf16>) -> tensor<2x6xf16>
      grid [2, 1, 1] block [32, 1, 1] forloop 1 {
    %xt = input_loader %X imap <> : tensor<2x64xf16> -> !mirage_block.stensor<2x64xf16>
    %wt = input_loader %W imap <x = 1> : tensor<64x6xf16> -> !mirage_block.stensor<64x3xf16>
    %y = matmul %xt, %wt : !mirage_block.stensor<2x64xf16>, !mirage_block.stensor<64x3xf16> -> !mirage_block.stensor<2x3xf16>
    %s = output_saver %y omap <x = 1> : !mirage_block.stensor<2x3xf16> -> tensor<2x6xf16>
    yield %s : tensor<2x6xf16>
  }
  return %o : tensor<2x6xf16>
}

// -----

// An f32 rhs computed in shared memory (swizzled: a 2048-byte matmul operand
// with 64-byte rows): 16-byte loads of 4 floats from shared memory
// (ld.shared.v4).
// CHECK-LABEL: gpu.func @shared_kernel0
// CHECK: %[[E:.*]] = memref.view %{{.*}} to memref<512xf32, #gpu.address_space<workgroup>>
// CHECK: %{{.*}}:16 = scf.for {{.*}} iter_args
// CHECK: memref.extract_aligned_pointer_as_index %[[E]]
// CHECK: llvm.inttoptr %{{.*}} : i64 to !llvm.ptr<3>
// CHECK: arith.xori
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
// PTX-LABEL: .visible .entry shared_kernel0(
// PTX: ld.shared.v4.b32
func.func @shared(%x: tensor<4x32xf32>, %w: tensor<32x16xf32>) -> tensor<4x16xf32> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<4x32xf32>, %W = %w : tensor<32x16xf32>) -> tensor<4x16xf32>
      grid [1, 1, 1] block [32, 1, 1] forloop 1 {
    %xt = input_loader %X imap <> : tensor<4x32xf32> -> !mirage_block.stensor<4x32xf32>
    %wt = input_loader %W imap <> : tensor<32x16xf32> -> !mirage_block.stensor<32x16xf32>
    %e = exp %wt : !mirage_block.stensor<32x16xf32>
    %y = matmul %xt, %e : !mirage_block.stensor<4x32xf32>, !mirage_block.stensor<32x16xf32> -> !mirage_block.stensor<4x16xf32>
    %s = output_saver %y omap <> : !mirage_block.stensor<4x16xf32> -> tensor<4x16xf32>
    yield %s : tensor<4x16xf32>
  }
  return %o : tensor<4x16xf32>
}

// -----

// A reduction of the first dimension reads rows of 8 halves at a time; one of
// the last dimension in steps of 8 (size 8) too; one of the whole last
// dimension (steps of 1) sums runs of 8 consecutive terms per load (@row_sums
// below). The three reductions read the same tile, so it is preloaded into
// shared memory and the loads are from there.
// CHECK-LABEL: gpu.func @reduce_kernel0
// CHECK: %[[T:.*]] = memref.view %{{.*}} to memref<1024xf16, #gpu.address_space<workgroup>>
// CHECK: nvvm.cp.async.wait.group 0
// CHECK: %{{.*}}:32 = scf.for {{.*}} iter_args
// CHECK: memref.extract_aligned_pointer_as_index %[[T]]
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xf16>
// CHECK: %{{.*}}:32 = scf.for {{.*}} iter_args
// CHECK: memref.extract_aligned_pointer_as_index %[[T]]
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xf16>
// CHECK: %{{.*}}:32 = scf.for {{.*}} iter_args
// CHECK: memref.extract_aligned_pointer_as_index %[[T]]
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xf16>
// CHECK: gpu.barrier
func.func @reduce(%x: tensor<16x64xf16>) -> (tensor<1x64xf16>, tensor<16x8xf16>, tensor<16x1xf16>) {
  %o:3 = mirage_kernel.graph_def(%X = %x : tensor<16x64xf16>) -> (tensor<1x64xf16>, tensor<16x8xf16>, tensor<16x1xf16>)
      grid [1, 1, 1] block [32, 1, 1] forloop 1 {
    %t = input_loader %X imap <> : tensor<16x64xf16> -> !mirage_block.stensor<16x64xf16>
    %r0 = reduction %t dim 0 : !mirage_block.stensor<16x64xf16> -> !mirage_block.stensor<1x64xf16>
    %r1 = reduction %t dim 1 size 8 : !mirage_block.stensor<16x64xf16> -> !mirage_block.stensor<16x8xf16>
    %r2 = reduction %t dim 1 : !mirage_block.stensor<16x64xf16> -> !mirage_block.stensor<16x1xf16>
    %s0 = output_saver %r0 omap <> : !mirage_block.stensor<1x64xf16> -> tensor<1x64xf16>
    %s1 = output_saver %r1 omap <> : !mirage_block.stensor<16x8xf16> -> tensor<16x8xf16>
    %s2 = output_saver %r2 omap <> : !mirage_block.stensor<16x1xf16> -> tensor<16x1xf16>
    yield %s0, %s1, %s2 : tensor<1x64xf16>, tensor<16x8xf16>, tensor<16x1xf16>
  }
  return %o#0, %o#1, %o#2 : tensor<1x64xf16>, tensor<16x8xf16>, tensor<16x1xf16>
}

// -----

// A tile that one op reads once is read in place: the same 16-byte loads,
// from global memory (ld.global.v4.b32).
// CHECK-LABEL: gpu.func @once_kernel0
// CHECK-NOT: nvvm.cp.async
// CHECK: %{{.*}}:32 = scf.for {{.*}} iter_args
// CHECK: memref.extract_aligned_pointer_as_index %arg0
// CHECK: llvm.addrspacecast %{{.*}} : !llvm.ptr to !llvm.ptr<1>
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<8xf16>
// CHECK: gpu.return
// PTX-LABEL: .visible .entry once_kernel0(
// PTX: ld.global.v4.b32
func.func @once(%x: tensor<16x64xf16>) -> tensor<1x64xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<16x64xf16>) -> tensor<1x64xf16>
      grid [1, 1, 1] block [32, 1, 1] forloop 1 {
    %t = input_loader %X imap <> : tensor<16x64xf16> -> !mirage_block.stensor<16x64xf16>
    %r = reduction %t dim 0 : !mirage_block.stensor<16x64xf16> -> !mirage_block.stensor<1x64xf16>
    %s = output_saver %r omap <> : !mirage_block.stensor<1x64xf16> -> tensor<1x64xf16>
    yield %s : tensor<1x64xf16>
  }
  return %o : tensor<1x64xf16>
}

// -----

// A sum of consecutive terms (a reduction of the whole last dimension) reads
// them in runs of 8 halves, one 16-byte load each, and the slices of a row
// go to consecutive threads, taking its runs in turn: 16 rows x 8 slices of
// 4 runs, thread t the row t / 8 and the slice t % 8, slice s the runs s,
// s + 8, s + 16, s + 24. So the 8 threads of a quarter warp read 128
// consecutive bytes of one row. Each position of a run keeps its own 4
// partials; the 8 positions' sums are added pairwise, then the slice's sum
// is stored as a partial.
// CHECK-LABEL: gpu.func @row_sums_kernel0
// CHECK: %[[TID:.*]] = arith.addi %thread_id_x
// CHECK: %[[PAIR:.*]] = arith.addi %{{.*}}, %[[TID]] : index
// CHECK-DAG: %[[ROW:.*]] = arith.divui %[[PAIR]], %c8{{(_[0-9]+)?}} : index
// CHECK-DAG: %[[SLICE:.*]] = arith.remui %[[PAIR]], %c8{{(_[0-9]+)?}} : index
// CHECK: %{{.*}}:32 = scf.for %[[I:.*]] = %{{.*}} to %c4{{.*}} step %c4{{.*}} iter_args
// CHECK: %[[STEP:.*]] = arith.muli %[[I]], %c8{{(_[0-9]+)?}} : index
// CHECK: %[[RUNIDX:.*]] = arith.addi %[[STEP]], %[[SLICE]] : index
// CHECK: arith.muli %[[RUNIDX]], %c8{{(_[0-9]+)?}} : index
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<8xf16>
// CHECK: scf.yield
// 8 x 3 additions of the partials, then 7 of the positions.
// CHECK-COUNT-31: arith.addf
// CHECK-NOT: arith.addf
// CHECK: memref.store
// CHECK: gpu.barrier
// PTX-LABEL: .visible .entry row_sums_kernel0(
// PTX: ld.global.v4.b32
func.func @row_sums(%x: tensor<16x256xf16>) -> tensor<16x1xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<16x256xf16>) -> tensor<16x1xf16>
      grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    %t = input_loader %X imap <> : tensor<16x256xf16> -> !mirage_block.stensor<16x256xf16>
    %r = reduction %t dim 1 : !mirage_block.stensor<16x256xf16> -> !mirage_block.stensor<16x1xf16>
    %s = output_saver %r omap <> : !mirage_block.stensor<16x1xf16> -> tensor<16x1xf16>
    yield %s : tensor<16x1xf16>
  }
  return %o : tensor<16x1xf16>
}
