// RUN: mirage-opt %s --split-input-file --convert-mirage-block-to-gpu | FileCheck %s
// RUN: mirage-opt %s --split-input-file --convert-mirage-block-to-gpu=tma=false | FileCheck %s --check-prefix=CPASYNC
// RUN: mirage-opt %s --split-input-file --mirage-to-ptx-pipeline=chip=sm_90a | FileCheck %s --check-prefix=PTX

// The shared tiles that tensor-core matmuls read or write are swizzled
// (Tile::swizzle): the 16-byte chunk c of each 128-byte line l is stored at
// chunk c ^ (l % (S / 16)), S the most of 128, 64 and 32 dividing the bytes
// of a row, so that a fragment's rows lie in different banks. Every access
// XORs its position (in f16 elements: chunks of 8, lines of 64) with it.
// Staged tiles copied by TMA are swizzled by the TMA unit itself when their
// rows are S bytes (`swizzle = S` in mirage.tensor_maps, SWIZZLE_<S>B in the
// descriptor), and are 1024-byte aligned, as is the shared memory. Tiles
// that no matmul reads or writes (the f32 accumulator of sum_last here)
// keep their dense layout.

// Q (64x64, preloaded) and K (64x64 per iteration, staged) have 128-byte
// rows: 128-byte swizzle; V's tile 64x32 has 64-byte rows: 64-byte swizzle.
// CHECK-LABEL: gpu.func @attention_kernel0
// CHECK-SAME: mirage.tensor_maps = [{argument = 5 : i64, box = array<i64: 64, 64>, input = 1 : i64, shape = array<i64: 64, 256>, swizzle = 128 : i64}, {argument = 6 : i64, box = array<i64: 64, 32>, input = 2 : i64, shape = array<i64: 256, 32>, swizzle = 64 : i64}]
// CHECK: %[[LINE:.*]] = arith.shrui %{{.*}}, %c6
// CHECK: %[[KEY:.*]] = arith.andi %[[LINE]], %c7
// CHECK: %[[SHIFT:.*]] = arith.muli %[[KEY]], %c8
// CHECK: arith.xori %{{.*}}, %[[SHIFT]]
// CHECK: nvvm.mma.sync
// CHECK: arith.andi %{{.*}}, %c3
// CHECK: gpu.return
// CPASYNC-LABEL: gpu.func @attention_kernel0
// CPASYNC-NOT: mirage.tensor_maps
// CPASYNC: nvvm.cp.async.shared.global
// CPASYNC: arith.xori
// CPASYNC: nvvm.mma.sync
// CPASYNC: gpu.return
// PTX: .extern .shared .align 1024 .b8 __dynamic_shmem__0[];
// PTX-LABEL: .visible .entry attention_kernel0(
// PTX: cp.async.bulk.tensor.2d
// PTX: xor.b
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
func.func @attention(%q: tensor<64x64xf16>, %k: tensor<64x256xf16>, %v: tensor<256x32xf16>) -> (tensor<64x1xf16>, tensor<64x32xf16>) {
  %s, %o = mirage_kernel.graph_def(%Q = %q : tensor<64x64xf16>, %K = %k : tensor<64x256xf16>, %V = %v : tensor<256x32xf16>) -> (tensor<64x1xf16>, tensor<64x32xf16>)
      grid [1, 1, 1] block [128, 1, 1] forloop 4 {
    %qt = input_loader %Q imap <> : tensor<64x64xf16> -> !mirage_block.stensor<64x64xf16>
    %kt = input_loader %K imap <> fmap 1 : tensor<64x256xf16> -> !mirage_block.stensor<64x64xf16>
    %vt = input_loader %V imap <> fmap 0 : tensor<256x32xf16> -> !mirage_block.stensor<64x32xf16>
    %p = matmul %qt, %kt : !mirage_block.stensor<64x64xf16>, !mirage_block.stensor<64x64xf16> -> !mirage_block.stensor<64x64xf16>
    %e = exp %p : !mirage_block.stensor<64x64xf16>
    %sum = forloop_accum %e sum_last : !mirage_block.stensor<64x64xf16> -> !mirage_block.stensor<64x1xf16>
    %y = matmul %e, %vt : !mirage_block.stensor<64x64xf16>, !mirage_block.stensor<64x32xf16> -> !mirage_block.stensor<64x32xf16>
    %acc = forloop_accum %y sum : !mirage_block.stensor<64x32xf16> -> !mirage_block.stensor<64x32xf16>
    %s0 = output_saver %sum omap <> : !mirage_block.stensor<64x1xf16> -> tensor<64x1xf16>
    %s1 = output_saver %acc omap <> : !mirage_block.stensor<64x32xf16> -> tensor<64x32xf16>
    yield %s0, %s1 : tensor<64x1xf16>, tensor<64x32xf16>
  }
  return %s, %o : tensor<64x1xf16>, tensor<64x32xf16>
}

// -----

// A staged tile whose rows are several 128-byte spans (X: 16 rows of 512
// bytes) is copied by TMA in boxes of 64 columns (128-byte rows, swizzled),
// one after another in its stage: 4 copies per stage, each into its block
// of 16 x 64 halves (2048 bytes, so every block keeps the swizzle's 1024-byte
// alignment). An access to column c adds (c / 64) * 1024 + c % 64, then
// swizzles. W's 128-byte rows are one box, as before.
// CHECK-LABEL: gpu.func @blocks_kernel0
// CHECK-SAME: mirage.tensor_maps = [{argument = 3 : i64, box = array<i64: 16, 64>, input = 0 : i64, shape = array<i64: 16, 1024>, swizzle = 128 : i64}, {argument = 4 : i64, box = array<i64: 256, 64>, input = 1 : i64, shape = array<i64: 1024, 128>, swizzle = 128 : i64}]
// CHECK: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c40960_i32
// CHECK: %[[X:.*]] = llvm.inttoptr %{{.*}} : i64 to !llvm.ptr
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[X]], %{{.*}} box[%{{.*}}, %{{.*}}]
// CHECK: %[[C64:.*]] = arith.addi %{{.*}}, %c64_i32
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[X]], %{{.*}} box[%[[C64]], %{{.*}}]
// CHECK: %[[C128:.*]] = arith.addi %{{.*}}, %c128_i32
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[X]], %{{.*}} box[%[[C128]], %{{.*}}]
// CHECK: %[[C192:.*]] = arith.addi %{{.*}}, %c192_i32
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[X]], %{{.*}} box[%[[C192]], %{{.*}}]
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK: scf.for
// CHECK: %[[BLOCK:.*]] = arith.divui %{{.*}}, %c64{{(_[0-9]+)?}} : index
// CHECK: arith.muli %[[BLOCK]], %c1024{{(_[0-9]+)?}} : index
// CHECK: arith.remui %{{.*}}, %c64{{(_[0-9]+)?}} : index
// CHECK: arith.xori
// CHECK: nvvm.ldmatrix
// PTX-LABEL: .visible .entry blocks_kernel0(
// PTX-COUNT-5: cp.async.bulk.tensor.2d
func.func @blocks(%x: tensor<16x1024xf16>, %w: tensor<1024x128xf16>) -> tensor<16x128xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<16x1024xf16>, %W = %w : tensor<1024x128xf16>) -> tensor<16x128xf16>
      grid [2, 1, 1] block [128, 1, 1] forloop 4 {
    %xt = input_loader %X imap <> fmap 1 : tensor<16x1024xf16> -> !mirage_block.stensor<16x256xf16>
    %wt = input_loader %W imap <x = 1> fmap 0 : tensor<1024x128xf16> -> !mirage_block.stensor<256x64xf16>
    %y = matmul %xt, %wt : !mirage_block.stensor<16x256xf16>, !mirage_block.stensor<256x64xf16> -> !mirage_block.stensor<16x64xf16>
    %a = forloop_accum %y sum : !mirage_block.stensor<16x64xf16> -> !mirage_block.stensor<16x64xf16>
    %s = output_saver %a omap <x = 1> : !mirage_block.stensor<16x64xf16> -> tensor<16x128xf16>
    yield %s : tensor<16x128xf16>
  }
  return %o : tensor<16x128xf16>
}

// -----

// A GEMV: the 2x128 rows of X are a matmul operand but only 512 bytes, not a
// whole 1024-byte block: dense; W's 128x48 tile has 96-byte rows, which TMA
// cannot swizzle as one box: dense, copied by TMA.
// CHECK-LABEL: gpu.func @gemv_kernel0
// CHECK-SAME: mirage.tensor_maps = [{argument = 3 : i64, box = array<i64: 2, 128>, input = 0 : i64, shape = array<i64: 2, 512>}, {argument = 4 : i64, box = array<i64: 128, 48>, input = 1 : i64, shape = array<i64: 512, 96>}]
// CHECK-NOT: arith.xori
// CHECK: gpu.return
func.func @gemv(%x: tensor<2x512xf16>, %w: tensor<512x96xf16>) -> tensor<2x96xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<2x512xf16>, %W = %w : tensor<512x96xf16>) -> tensor<2x96xf16>
      grid [2, 1, 1] block [128, 1, 1] forloop 4 {
    %xt = input_loader %X imap <> fmap 1 : tensor<2x512xf16> -> !mirage_block.stensor<2x128xf16>
    %wt = input_loader %W imap <x = 1> fmap 0 : tensor<512x96xf16> -> !mirage_block.stensor<128x48xf16>
    %y = matmul %xt, %wt : !mirage_block.stensor<2x128xf16>, !mirage_block.stensor<128x48xf16> -> !mirage_block.stensor<2x48xf16>
    %a = forloop_accum %y sum : !mirage_block.stensor<2x48xf16> -> !mirage_block.stensor<2x48xf16>
    %s = output_saver %a omap <x = 1> : !mirage_block.stensor<2x48xf16> -> tensor<2x96xf16>
    yield %s : tensor<2x96xf16>
  }
  return %o : tensor<2x96xf16>
}
