// RUN: mirage-opt %s --split-input-file --convert-mirage-block-to-gpu | FileCheck %s
// RUN: mirage-opt %s --split-input-file --convert-mirage-block-to-gpu=stages=0 | FileCheck %s --check-prefix=INPLACE
// RUN: mirage-opt %s --split-input-file --convert-mirage-block-to-gpu=wgmma=true | FileCheck %s --check-prefix=WGMMA
// RUN: mirage-opt %s --split-input-file --mirage-to-ptx-pipeline=chip=sm_80 | FileCheck %s --check-prefix=PTX
// RUN: mirage-opt %s --split-input-file --mirage-to-ptx-pipeline=chip=sm_90a | FileCheck %s --check-prefix=PTX
// RUN: mirage-opt %s --split-input-file --mirage-to-ptx-pipeline="chip=sm_90a wgmma=true" | FileCheck %s --check-prefix=PTX-WGMMA

// bf16 matmuls take the tensor-core paths of f16 ones (tensor-cores.mlir,
// wgmma.mlir, register-chain.mlir) with bf16 operands and f32 sums:
// ldmatrix reads the same 16-bit fragments, mma.sync.m16n8k16 multiplies
// them as bf16 (NVVM passes bf16 fragments as i32 registers, so each
// vector<2xbf16> register is bitcast to i32 for the instruction), wgmma's
// descriptors address the same K-major core matrices, and a register chain
// rounds E to bf16 and packs bf16 pairs.

// 16 rows, 2 column tiles, 2 warps (tensor-cores.mlir's @whole_rows).
// CHECK-LABEL: gpu.func @whole_rows_kernel0
// CHECK: %[[A:.*]] = nvvm.ldmatrix %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, num = 4 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK: llvm.bitcast %{{.*}} : i32 to vector<2xbf16>
// CHECK: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<col>, num = 2
// CHECK: llvm.bitcast %{{.*}} : i32 to vector<2xbf16>
// CHECK: %[[A0:.*]] = llvm.bitcast %{{.*}} : vector<2xbf16> to i32
// CHECK: %[[A1:.*]] = llvm.bitcast %{{.*}} : vector<2xbf16> to i32
// CHECK: %[[A2:.*]] = llvm.bitcast %{{.*}} : vector<2xbf16> to i32
// CHECK: %[[A3:.*]] = llvm.bitcast %{{.*}} : vector<2xbf16> to i32
// CHECK: %[[B0:.*]] = llvm.bitcast %{{.*}} : vector<2xbf16> to i32
// CHECK: %[[B1:.*]] = llvm.bitcast %{{.*}} : vector<2xbf16> to i32
// CHECK: nvvm.mma.sync A[%[[A0]], %[[A1]], %[[A2]], %[[A3]]]  B[%[[B0]], %[[B1]]]  C[{{.*}}] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK: scf.yield
// CHECK: llvm.store %{{.*}} {alignment = 4 : i64} : vector<2xbf16>, !llvm.ptr<3>
// CHECK: gpu.barrier
// PTX-LABEL: .visible .entry whole_rows_kernel0(
// PTX: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX: ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// PTX-NOT: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX: ret;
func.func @whole_rows(%x: tensor<16x64xbf16>, %w: tensor<64x32xbf16>) -> tensor<16x32xbf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<16x64xbf16>, %W = %w : tensor<64x32xbf16>) -> tensor<16x32xbf16>
      grid [2, 1, 1] block [64, 1, 1] forloop 1 {
    %xt = input_loader %X imap <> : tensor<16x64xbf16> -> !mirage_block.stensor<16x64xbf16>
    %wt = input_loader %W imap <x = 1> : tensor<64x32xbf16> -> !mirage_block.stensor<64x16xbf16>
    %y = matmul %xt, %wt : !mirage_block.stensor<16x64xbf16>, !mirage_block.stensor<64x16xbf16> -> !mirage_block.stensor<16x16xbf16>
    %s = output_saver %y omap <x = 1> : !mirage_block.stensor<16x16xbf16> -> tensor<16x32xbf16>
    yield %s : tensor<16x32xbf16>
  }
  return %o : tensor<16x32xbf16>
}

// -----

// 12 rows: the lanes of rows 12-15 read row 11, clamped, and their product
// rows are dropped (tensor-cores.mlir's @partial_rows).
// CHECK-LABEL: gpu.func @partial_rows_kernel0
// CHECK: arith.minui %{{.*}}, %c11
// CHECK-NOT: arith.select
// CHECK: nvvm.mma.sync {{.*}}multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>
// PTX-LABEL: .visible .entry partial_rows_kernel0(
// PTX-NOT: selp.b32
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
func.func @partial_rows(%x: tensor<12x32xbf16>, %w: tensor<32x8xbf16>) -> tensor<12x8xbf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<12x32xbf16>, %W = %w : tensor<32x8xbf16>) -> tensor<12x8xbf16>
      grid [1, 1, 1] block [32, 1, 1] forloop 1 {
    %xt = input_loader %X imap <> : tensor<12x32xbf16> -> !mirage_block.stensor<12x32xbf16>
    %wt = input_loader %W imap <> : tensor<32x8xbf16> -> !mirage_block.stensor<32x8xbf16>
    %y = matmul %xt, %wt : !mirage_block.stensor<12x32xbf16>, !mirage_block.stensor<32x8xbf16> -> !mirage_block.stensor<12x8xbf16>
    %s = output_saver %y omap <> : !mirage_block.stensor<12x8xbf16> -> tensor<12x8xbf16>
    yield %s : tensor<12x8xbf16>
  }
  return %o : tensor<12x8xbf16>
}

// -----

// A for-loop sum in registers; with stages=0 the operands are read in place
// from global memory: A pairs by one 32-bit load each, B pairs packed from
// two bf16 loads (tensor-cores.mlir's @in_place).
// CHECK-LABEL: gpu.func @in_place_kernel0
// CHECK: scf.for {{.*}} -> (f32, f32, f32, f32)
// CHECK: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<row>, num = 4
// CHECK: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<col>, num = 2
// CHECK: nvvm.mma.sync {{.*}}multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>
// INPLACE-LABEL: gpu.func @in_place_kernel0
// INPLACE: scf.for {{.*}} step %c32{{.*}} -> (f32, f32, f32, f32)
// INPLACE-NOT: nvvm.ldmatrix
// INPLACE: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<1> -> vector<2xbf16>
// INPLACE: %[[LO:.*]] = memref.load %arg1{{.*}} : memref<512xbf16>
// INPLACE: %[[HI:.*]] = memref.load %arg1{{.*}} : memref<512xbf16>
// INPLACE: %[[POISON:.*]] = llvm.mlir.poison : vector<2xbf16>
// INPLACE: %[[PAIR:.*]] = llvm.insertelement %[[LO]], %[[POISON]][%c0_i32{{.*}} : i32] : vector<2xbf16>
// INPLACE: llvm.insertelement %[[HI]], %[[PAIR]][%c1_i32{{.*}} : i32] : vector<2xbf16>
// INPLACE: nvvm.mma.sync {{.*}}multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>
// INPLACE: scf.yield
// PTX-LABEL: .visible .entry in_place_kernel0(
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
func.func @in_place(%x: tensor<16x64xbf16>, %w: tensor<64x8xbf16>) -> tensor<16x8xbf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<16x64xbf16>, %W = %w : tensor<64x8xbf16>) -> tensor<16x8xbf16>
      grid [1, 1, 1] block [32, 1, 1] forloop 2 {
    %xt = input_loader %X imap <> fmap 1 : tensor<16x64xbf16> -> !mirage_block.stensor<16x32xbf16>
    %wt = input_loader %W imap <> fmap 0 : tensor<64x8xbf16> -> !mirage_block.stensor<32x8xbf16>
    %mm = matmul %xt, %wt : !mirage_block.stensor<16x32xbf16>, !mirage_block.stensor<32x8xbf16> -> !mirage_block.stensor<16x8xbf16>
    %acc = forloop_accum %mm sum : !mirage_block.stensor<16x8xbf16> -> !mirage_block.stensor<16x8xbf16>
    %s = output_saver %acc omap <> : !mirage_block.stensor<16x8xbf16> -> tensor<16x8xbf16>
    yield %s : tensor<16x8xbf16>
  }
  return %o : tensor<16x8xbf16>
}

// -----

// With wgmma=true, a 64x32 result in one warpgroup (wgmma.mma's
// @standard): the K-major copies hold bf16 core matrices and wgmma
// multiplies bf16 with f32 sums. By default, mma.sync.
// WGMMA-LABEL: gpu.func @standard_kernel0
// WGMMA: llvm.store %{{.*}} {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<3>
// WGMMA: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// WGMMA: nvvm.wgmma.fence.aligned
// WGMMA: arith.constant 274878431232 : i64
// WGMMA: nvvm.wgmma.mma_async %{{.*}}, %{{.*}}, %{{.*}}, <m = 64, n = 32, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>]
// WGMMA: nvvm.wgmma.commit.group.sync.aligned
// WGMMA: llvm.store %{{.*}} {alignment = 4 : i64} : vector<2xbf16>, !llvm.ptr<3>
// CHECK-LABEL: gpu.func @standard_kernel0
// CHECK-NOT: wgmma
// CHECK: nvvm.mma.sync {{.*}}multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>
// CHECK-NOT: wgmma
// PTX-LABEL: .visible .entry standard_kernel0(
// PTX-NOT: wgmma
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// PTX-WGMMA-LABEL: .visible .entry standard_kernel0(
// PTX-WGMMA-NOT: .local
// PTX-WGMMA: wgmma.fence.sync.aligned;
// PTX-WGMMA: wgmma.mma_async.sync.aligned.m64n32k16.f32.bf16.bf16
// PTX-WGMMA: wgmma.wait_group.sync.aligned
func.func @standard(%a: tensor<64x64xbf16>, %b: tensor<64x32xbf16>) -> tensor<64x32xbf16> {
  %o = mirage_kernel.graph_def(%A = %a : tensor<64x64xbf16>, %B = %b : tensor<64x32xbf16>) -> tensor<64x32xbf16>
      grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    %at = input_loader %A imap <> fmap -1 : tensor<64x64xbf16> -> !mirage_block.stensor<64x64xbf16>
    %bt = input_loader %B imap <> fmap -1 : tensor<64x32xbf16> -> !mirage_block.stensor<64x32xbf16>
    %y = matmul %at, %bt : !mirage_block.stensor<64x64xbf16>, !mirage_block.stensor<64x32xbf16> -> !mirage_block.stensor<64x32xbf16>
    %s = output_saver %y omap <> : !mirage_block.stensor<64x32xbf16> -> tensor<64x32xbf16>
    yield %s : tensor<64x32xbf16>
  }
  return %o : tensor<64x32xbf16>
}

// -----

// A register chain (register-chain.mlir's @attention): E = exp(Q x K) is
// rounded to bf16 and packed in bf16 pairs into the lhs fragments of E x V,
// with no shared tile or barrier between the two matmuls.
// CHECK-LABEL: gpu.func @attention_kernel0
// CHECK: scf.for %{{.*}} iter_args({{.*}}) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)
// CHECK: nvvm.mma.sync {{.*}}multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>
// CHECK-NOT: gpu.barrier
// CHECK: math.exp
// CHECK-NOT: gpu.barrier
// CHECK: arith.truncf %{{.*}} : f32 to bf16
// CHECK: %[[POISON:.*]] = llvm.mlir.poison : vector<2xbf16>
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[PAIR:.*]] = llvm.insertelement %{{.*}}, %[[POISON]][%[[C0]] : i32] : vector<2xbf16>
// CHECK-NEXT: %[[C1:.*]] = arith.constant 1 : i32
// CHECK-NEXT: llvm.insertelement %{{.*}}, %[[PAIR]][%[[C1]] : i32] : vector<2xbf16>
// CHECK-NOT: gpu.barrier
// CHECK: nvvm.mma.sync {{.*}}multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>
// CHECK-NOT: gpu.barrier
// CHECK-NOT: llvm.store
// CHECK: scf.yield
// WGMMA-LABEL: gpu.func @attention_kernel0
// WGMMA-NOT: wgmma
// WGMMA: gpu.return
// PTX-LABEL: .visible .entry attention_kernel0(
// PTX-NOT: .local
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// PTX-NOT: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX: shfl.sync.bfly.b32
func.func @attention(%q: tensor<64x64xbf16>, %k: tensor<64x128xbf16>, %v: tensor<128x64xbf16>) -> (tensor<64x64xbf16>, tensor<64x1xbf16>) {
  %o, %d = mirage_kernel.graph_def(%Q = %q : tensor<64x64xbf16>, %K = %k : tensor<64x128xbf16>, %V = %v : tensor<128x64xbf16>) -> (tensor<64x64xbf16>, tensor<64x1xbf16>)
      grid [1, 1, 1] block [128, 1, 1] forloop 4 {
    %qt = input_loader %Q imap <> : tensor<64x64xbf16> -> !mirage_block.stensor<64x64xbf16>
    %kt = input_loader %K imap <> fmap 1 : tensor<64x128xbf16> -> !mirage_block.stensor<64x32xbf16>
    %vt = input_loader %V imap <> fmap 0 : tensor<128x64xbf16> -> !mirage_block.stensor<32x64xbf16>
    %s = matmul %qt, %kt : !mirage_block.stensor<64x64xbf16>, !mirage_block.stensor<64x32xbf16> -> !mirage_block.stensor<64x32xbf16>
    %e = exp %s : !mirage_block.stensor<64x32xbf16>
    %ev = matmul %e, %vt : !mirage_block.stensor<64x32xbf16>, !mirage_block.stensor<32x64xbf16> -> !mirage_block.stensor<64x64xbf16>
    %acc = forloop_accum %ev sum : !mirage_block.stensor<64x64xbf16> -> !mirage_block.stensor<64x64xbf16>
    %den = forloop_accum %e sum_last : !mirage_block.stensor<64x32xbf16> -> !mirage_block.stensor<64x1xbf16>
    %oa = output_saver %acc omap <> : !mirage_block.stensor<64x64xbf16> -> tensor<64x64xbf16>
    %od = output_saver %den omap <> : !mirage_block.stensor<64x1xbf16> -> tensor<64x1xbf16>
    yield %oa, %od : tensor<64x64xbf16>, tensor<64x1xbf16>
  }
  return %o, %d : tensor<64x64xbf16>, tensor<64x1xbf16>
}
