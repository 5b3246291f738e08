// RUN: mirage-opt %s --split-input-file --convert-mirage-block-to-gpu=row-programs=false | FileCheck %s
// RUN: mirage-opt %s --split-input-file --convert-mirage-block-to-gpu="tensor-cores=false row-programs=false" | FileCheck %s --check-prefix=SIMT

// Row programs are off (row-programs=false): these kernels show the
// op-by-op lowering; row-program.mlir has the bodies that run in registers.

// Strided reduction: out[i, j] = sum_k in[i, j + 4k], k < 16 / 4.
// CHECK-LABEL: gpu.func @reduction_kernel0
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK: %[[OFF:.*]] = arith.muli %[[K]], %{{.*}} : index
// CHECK: arith.addi %{{.*}}, %[[OFF]] : index
// CHECK: arith.addf
func.func @reduction(%x: tensor<8x16xf32>) -> tensor<8x4xf32> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<8x16xf32>) -> tensor<8x4xf32>
      grid [1, 1, 1] block [32, 1, 1] forloop 1 {
    %t = input_loader %X imap <> : tensor<8x16xf32> -> !mirage_block.stensor<8x16xf32>
    %r = reduction %t dim 1 size 4 : !mirage_block.stensor<8x16xf32> -> !mirage_block.stensor<8x4xf32>
    %s = output_saver %r omap <> : !mirage_block.stensor<8x4xf32> -> tensor<8x4xf32>
    yield %s : tensor<8x4xf32>
  }
  return %o : tensor<8x4xf32>
}

// -----

// rms_norm reads its input twice, so the input tile is preloaded into
// shared memory (cp.async, one group, waited for before the ops). One pass
// computes the reciprocal of each group's root mean square into an f32
// scratch tile (8 groups: one guarded round of the 32 threads, each adding
// the squares of its group's 2 runs of 8 halves, each position of the run
// its own sum), a second multiplies by it (16 runs of 8 halves: one guarded
// round).
// CHECK-LABEL: gpu.func @norm_kernel0
// CHECK: %[[IN:.*]] = memref.view %{{.*}} to memref<128xf16, #gpu.address_space<workgroup>>
// CHECK: %[[SCRATCH:.*]] = memref.view %{{.*}} to memref<8xf32, #gpu.address_space<workgroup>>
// CHECK: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.commit.group
// CHECK-NEXT: nvvm.cp.async.wait.group 0
// CHECK-NEXT: gpu.barrier
// CHECK: %[[GROUP:.*]] = arith.cmpi ult, %{{.*}}, %c8{{(_[0-9]+)?}} : index
// CHECK: scf.if %[[GROUP]]
// CHECK: scf.for {{.*}} -> (f32, f32, f32, f32, f32, f32, f32, f32)
// CHECK: memref.extract_aligned_pointer_as_index %[[IN]]
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xf16>
// CHECK-COUNT-8: arith.mulf
// CHECK: scf.yield
// CHECK-COUNT-7: arith.addf
// CHECK: arith.constant 1.600000e+01 : f32
// CHECK: arith.divf
// CHECK: arith.constant 9.99999974E-6 : f32
// CHECK: arith.addf
// CHECK: %[[ROOT:.*]] = math.sqrt
// CHECK: %[[RECIPROCAL:.*]] = arith.divf %cst{{.*}}, %[[ROOT]] fastmath<afn> : f32
// CHECK: memref.store %[[RECIPROCAL]], %[[SCRATCH]]
// CHECK: gpu.barrier
// CHECK-NOT: scf.for
// CHECK: arith.cmpi ult, %{{.*}}, %c16{{(_[0-9]+)?}} : index
// CHECK: %[[FACTOR:.*]] = memref.load %[[SCRATCH]]
// CHECK: memref.extract_aligned_pointer_as_index %[[IN]]
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xf16>
// CHECK-COUNT-8: arith.mulf %{{.*}}, %[[FACTOR]] : f32
// CHECK: llvm.store %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
// CHECK-NOT: scf.for
// CHECK-NOT: arith.divf
// CHECK: gpu.barrier
func.func @norm(%x: tensor<8x16xf16>) -> tensor<8x16xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<8x16xf16>) -> tensor<8x16xf16>
      grid [1, 1, 1] block [32, 1, 1] forloop 1 {
    %t = input_loader %X imap <> : tensor<8x16xf16> -> !mirage_block.stensor<8x16xf16>
    %n = rms_norm %t size 16 eps 1.0e-5 : !mirage_block.stensor<8x16xf16>
    %s = output_saver %n omap <> : !mirage_block.stensor<8x16xf16> -> tensor<8x16xf16>
    yield %s : tensor<8x16xf16>
  }
  return %o : tensor<8x16xf16>
}

// -----

// concat: elements below the split come from the lhs, the others from the rhs.
// CHECK-LABEL: gpu.func @concat_kernel0
// CHECK: %[[LT:.*]] = arith.cmpi ult, %{{.*}}, %{{.*}} : index
// CHECK: scf.if %[[LT]] -> (f32)
// CHECK: memref.load %arg0
// CHECK: } else {
// CHECK: arith.subi
// CHECK: memref.load %arg1
func.func @concat(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x16xf32> {
  %o = mirage_kernel.graph_def(%A = %a : tensor<4x8xf32>, %B = %b : tensor<4x8xf32>) -> tensor<4x16xf32>
      grid [1, 1, 1] block [32, 1, 1] forloop 1 {
    %ta = input_loader %A imap <> : tensor<4x8xf32> -> !mirage_block.stensor<4x8xf32>
    %tb = input_loader %B imap <> : tensor<4x8xf32> -> !mirage_block.stensor<4x8xf32>
    %c = concat %ta, %tb dim 1 : !mirage_block.stensor<4x8xf32>, !mirage_block.stensor<4x8xf32> -> !mirage_block.stensor<4x16xf32>
    %s = output_saver %c omap <> : !mirage_block.stensor<4x16xf32> -> tensor<4x16xf32>
    yield %s : tensor<4x16xf32>
  }
  return %o : tensor<4x16xf32>
}

// -----

// A thread graph is one loop (512 runs of 8 halves: 8 rounds of the 64
// threads, 4 per iteration); each run reads 8 halves of the first operand
// at once and one element of the second (broadcast along the last
// dimension), computes the body per element with its scalars rounded to
// their type after every op, and stores both results 8 halves at a time in
// the same loop.
// CHECK-LABEL: gpu.func @fused_kernel0
// CHECK: scf.for
// CHECK: memref.extract_aligned_pointer_as_index %arg0
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<8xf16>
// CHECK: memref.load %arg1
// silu(x) = x / (1 + exp(-x))
// CHECK: arith.negf
// CHECK: math.exp
// CHECK: arith.divf
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: arith.extf
// CHECK: arith.mulf
// CHECK-COUNT-7: math.exp
// CHECK: llvm.store %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
// CHECK: llvm.store %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
// CHECK-NOT: scf.for
// CHECK: gpu.barrier
func.func @fused(%a: tensor<8x512xf16>, %b: tensor<8x1xf16>) -> (tensor<8x512xf16>, tensor<8x512xf16>) {
  %o:2 = mirage_kernel.graph_def(%A = %a : tensor<8x512xf16>, %B = %b : tensor<8x1xf16>)
      -> (tensor<8x512xf16>, tensor<8x512xf16>) grid [1, 1, 1] block [64, 1, 1] forloop 1 {
    %ta = input_loader %A imap <> : tensor<8x512xf16> -> !mirage_block.stensor<8x512xf16>
    %tb = input_loader %B imap <> : tensor<8x1xf16> -> !mirage_block.stensor<8x1xf16>
    %y:2 = thread_graph %ta, %tb : !mirage_block.stensor<8x512xf16>, !mirage_block.stensor<8x1xf16>
        -> !mirage_block.stensor<8x512xf16>, !mirage_block.stensor<8x512xf16> {
    ^bb0(%x: f16, %g: f16):
      %s = silu %x : f16
      %p = mul %s, %g : f16
      yield %p, %s : f16, f16
    }
    %s0 = output_saver %y#0 omap <> : !mirage_block.stensor<8x512xf16> -> tensor<8x512xf16>
    %s1 = output_saver %y#1 omap <> : !mirage_block.stensor<8x512xf16> -> tensor<8x512xf16>
    yield %s0, %s1 : tensor<8x512xf16>, tensor<8x512xf16>
  }
  return %o#0, %o#1 : tensor<8x512xf16>, tensor<8x512xf16>
}

// -----

// A GEMV: both operands are loop-invariant and read by the matmul, so they
// are preloaded into shared memory (cp.async, one group). By default the
// f16 matmul of one row runs on tensor cores: one warp, 16 mma.sync steps
// of k (4 per iteration), only row 0 stored. Both operands are read from
// their shared copies by ldmatrix: A by ldmatrix.x4 with every lane's row
// clamped to row 0 (the product rows past the first are dropped, so no
// register is selected), B by ldmatrix.x2.trans.
// CHECK-LABEL: gpu.func @gemv_kernel0
// CHECK-DAG: %[[XS:.*]] = memref.view %{{.*}} to memref<256xf16, #gpu.address_space<workgroup>>
// CHECK-DAG: %[[WS:.*]] = memref.view %{{.*}} to memref<2048xf16, #gpu.address_space<workgroup>>
// CHECK-DAG: %[[Y:.*]] = memref.view %{{.*}} to memref<8xf16, #gpu.address_space<workgroup>>
// CHECK: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.commit.group
// CHECK-NEXT: nvvm.cp.async.wait.group 0
// CHECK-NEXT: gpu.barrier
// CHECK: scf.for {{.*}} step %c64{{.*}} iter_args({{.*}}) -> (f32, f32, f32, f32)
// CHECK: %[[ROW:.*]] = arith.minui %{{.*}}, %c0{{(_[0-9]+)?}} : index
// CHECK: memref.extract_aligned_pointer_as_index %[[XS]]
// CHECK: arith.muli %[[ROW]], %c256
// CHECK: %[[A:.*]] = nvvm.ldmatrix %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, num = 4 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK: %[[A0I:.*]] = llvm.extractvalue %[[A]][0]
// CHECK: %[[A0:.*]] = llvm.bitcast %[[A0I]] : i32 to vector<2xf16>
// CHECK-NOT: arith.select
// CHECK: memref.extract_aligned_pointer_as_index %[[WS]]
// CHECK: nvvm.ldmatrix %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<col>, num = 2 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32)>
// CHECK: nvvm.mma.sync A[%[[A0]], %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}]
// CHECK-COUNT-3: nvvm.mma.sync
// CHECK: %[[FIRST:.*]] = arith.cmpi ult, %{{.*}}, %c1{{(_[0-9]+)?}} : index
// CHECK: scf.if %[[FIRST]]
// CHECK: memref.extract_aligned_pointer_as_index %[[Y]]
// CHECK: llvm.store %{{.*}} {alignment = 4 : i64} : vector<2xf16>, !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK: gpu.return
//
// On the SIMT path (tensor-cores=false), a matmul with a small result tile
// and a long contraction splits the contraction over the threads: 8 slices
// of 32 terms for the one group of 8 results (one guarded round of the 32
// threads), partial sums in shared memory (f32), then each result adds its
// 8 partials in slice order.
// SIMT-LABEL: gpu.func @gemv_kernel0
// SIMT-DAG: memref.view %{{.*}} to memref<8xf16, #gpu.address_space<workgroup>>
// SIMT-DAG: %[[PARTS:.*]] = memref.view %{{.*}} to memref<64xf32, #gpu.address_space<workgroup>>
// SIMT: nvvm.cp.async.wait.group 0
// SIMT: %[[SLICES:.*]] = arith.cmpi ult, %{{.*}}, %c8{{(_[0-9]+)?}} : index
// SIMT: scf.if %[[SLICES]]
// SIMT: %[[FIRST:.*]] = arith.muli %{{.*}}, %c32{{.*}} : index
// SIMT: %{{.*}}:32 = scf.for {{.*}} = %{{.*}} to %c32{{.*}} step %c4{{.*}} iter_args
// SIMT: arith.addi %[[FIRST]]
// SIMT: llvm.load %{{.*}} -> vector<8xf16>
// SIMT: memref.extract_aligned_pointer_as_index %[[PARTS]]
// SIMT-COUNT-2: llvm.store %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
// SIMT: gpu.barrier
// SIMT: %[[RESULTS:.*]] = arith.cmpi ult, %{{.*}}, %c8{{(_[0-9]+)?}} : index
// SIMT: scf.if %[[RESULTS]]
// SIMT-COUNT-8: memref.load %[[PARTS]]
// SIMT: gpu.barrier
func.func @gemv(%x: tensor<1x256xf16>, %w: tensor<256x8xf16>) -> tensor<1x8xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<1x256xf16>, %W = %w : tensor<256x8xf16>) -> tensor<1x8xf16>
      grid [1, 1, 1] block [32, 1, 1] forloop 1 {
    %xt = input_loader %X imap <> : tensor<1x256xf16> -> !mirage_block.stensor<1x256xf16>
    %wt = input_loader %W imap <> : tensor<256x8xf16> -> !mirage_block.stensor<256x8xf16>
    %y = matmul %xt, %wt : !mirage_block.stensor<1x256xf16>, !mirage_block.stensor<256x8xf16> -> !mirage_block.stensor<1x8xf16>
    %s = output_saver %y omap <> : !mirage_block.stensor<1x8xf16> -> tensor<1x8xf16>
    yield %s : tensor<1x8xf16>
  }
  return %o : tensor<1x8xf16>
}

// -----

// A reduction to one element splits its 512 terms over the threads too:
// 16 slices of 32 (one guarded round of the 32 threads), each thread's
// slice 8 runs of 4 consecutive floats (one 16-byte load each; slice s the
// runs s, s + 16, ...), each position of a run summed with four partials.
// CHECK-LABEL: gpu.func @total_kernel0
// CHECK-DAG: %[[PARTS:.*]] = memref.view %{{.*}} to memref<16xf32, #gpu.address_space<workgroup>>
// CHECK: %[[SLICE:.*]] = arith.cmpi ult, %{{.*}}, %c16{{(_[0-9]+)?}} : index
// CHECK: scf.if %[[SLICE]]
// CHECK: %{{.*}}:16 = scf.for {{.*}} = %{{.*}} to %c8{{.*}} step %c4{{.*}} iter_args
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK: memref.store %{{.*}}, %[[PARTS]]
// CHECK: gpu.barrier
// CHECK-COUNT-16: memref.load %[[PARTS]]
func.func @total(%x: tensor<1x512xf32>) -> tensor<1x1xf32> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<1x512xf32>) -> tensor<1x1xf32>
      grid [1, 1, 1] block [32, 1, 1] forloop 1 {
    %t = input_loader %X imap <> : tensor<1x512xf32> -> !mirage_block.stensor<1x512xf32>
    %r = reduction %t dim 1 : !mirage_block.stensor<1x512xf32> -> !mirage_block.stensor<1x1xf32>
    %s = output_saver %r omap <> : !mirage_block.stensor<1x1xf32> -> tensor<1x1xf32>
    yield %s : tensor<1x1xf32>
  }
  return %o : tensor<1x1xf32>
}
