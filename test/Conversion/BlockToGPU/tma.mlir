// RUN: mirage-opt %s --split-input-file --convert-mirage-block-to-gpu | FileCheck %s
// RUN: mirage-opt %s --split-input-file --convert-mirage-block-to-gpu=tma=false | FileCheck %s --check-prefix=CPASYNC
// RUN: mirage-opt %s --split-input-file --convert-mirage-block-to-gpu="chip=sm_80 tma=true" | FileCheck %s --check-prefix=CPASYNC
// RUN: mirage-opt %s --split-input-file --mirage-to-ptx-pipeline=chip=sm_90a | FileCheck %s --check-prefix=PTX

// On sm_90a, staged tiles are copied by the TMA unit: the kernel takes one
// TMA descriptor per staged input_loader after its buffers (the input's
// buffer, described by mirage.tensor_maps: the input's shape and the tile as
// box, and a swizzle where the TMA unit swizzles the box: W's 32x16 tile is
// a 1024-byte matmul operand whose 32-byte rows are the swizzle's bytes, so
// `swizzle = 32`, while X's 2x32 tile, 128 bytes, stays dense), one thread
// initialises one mbarrier per stage (4 stages by default), and for each
// iteration one thread announces the stage's bytes (arrive.expect_tx) and
// starts one cp.async.bulk.tensor per tile at the tile's coordinates
// (innermost first: the column block of W is blockIdx.x * 16, its row block
// iteration * 32); the prologue starts iterations 0-2; every thread waits on
// the stage's mbarrier with the parity of iteration / stages. The PTX passes
// each descriptor by value (.param .align 64 .b8 [128], a grid constant)
// and aligns the shared memory to 1024 bytes (the span of a swizzle
// pattern). tma=false, and sm_80, keep cp.async.

// CHECK-LABEL: gpu.func @fused_kernel0
// CHECK-SAME: %{{.*}}: memref<512xf16>, %{{.*}}: memref<16384xf16>, %{{.*}}: memref<128xf16>, %[[XMAP:.*]]: memref<512xf16>, %[[WMAP:.*]]: memref<16384xf16>)
// CHECK-SAME: mirage.tensor_maps = [{argument = 3 : i64, box = array<i64: 2, 32>, input = 0 : i64, shape = array<i64: 2, 256>}, {argument = 4 : i64, box = array<i64: 32, 16>, input = 1 : i64, shape = array<i64: 256, 64>, swizzle = 32 : i64}]
// CHECK: scf.if
// CHECK-COUNT-4: nvvm.mbarrier.init
// CHECK-NOT: nvvm.mbarrier.init
// CHECK: nvvm.fence.mbarrier.init
// CHECK: gpu.barrier
// The prologue: iterations 0, 1 and 2 into stages 0, 1 and 2.
// CHECK: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c1152_i32
// CHECK: memref.extract_aligned_pointer_as_index %[[XMAP]]
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %{{.*}}, %{{.*}}, box[%{{.*}}, %{{.*}}]
// CHECK: memref.extract_aligned_pointer_as_index %[[WMAP]]
// CHECK: %[[COL:.*]] = arith.muli %block_id_x, %c16
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %{{.*}}, %{{.*}}, box[%{{.*}}, %{{.*}}]
// CHECK-COUNT-2: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c1152_i32
// CHECK-NOT: nvvm.mbarrier.arrive.expect_tx
// The loop carries the matmul's sums (mma.sync, 2 rows) in registers.
// CHECK: scf.for %[[I:[a-z0-9_]+]] = {{.*}} -> (f32, f32, f32, f32)
// CHECK: %[[ROUND:.*]] = arith.divui %[[I]], %c4
// CHECK: %[[PARITY:.*]] = arith.andi %[[ROUND]], %c1
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK-NEXT: gpu.barrier
// CHECK: nvvm.mbarrier.arrive.expect_tx
// CHECK-COUNT-2: nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK-NOT: nvvm.cp.async.shared.global
// The matmul reads W's stage with the same swizzle: position ^ ((position
// / 64 halves) % 2) * 8 halves.
// CHECK: %[[LINE:.*]] = arith.shrui %{{.*}}, %c6{{(_[0-9]+)?}} :
// CHECK: %[[KEY:.*]] = arith.andi %[[LINE]], %c1{{(_[0-9]+)?}} :
// CHECK: %[[SHIFT:.*]] = arith.muli %[[KEY]], %c8{{(_[0-9]+)?}} :
// CHECK: arith.xori %{{.*}}, %[[SHIFT]]
// CHECK: nvvm.mma.sync
// CHECK-NOT: nvvm.cp.async.shared.global
// CHECK: gpu.return
// CPASYNC-LABEL: gpu.func @fused_kernel0
// CPASYNC-NOT: mirage.tensor_maps
// CPASYNC-NOT: mbarrier
// CPASYNC: nvvm.cp.async.shared.global
// CPASYNC-NOT: mbarrier
// CPASYNC: gpu.return
// PTX: .extern .shared .align 1024 .b8 __dynamic_shmem__0[];
// PTX-LABEL: .visible .entry fused_kernel0(
// PTX: .param .align 64 .b8 fused_kernel0_param_3[128],
// PTX: .param .align 64 .b8 fused_kernel0_param_4[128]
// PTX: cvta.param.u64
// PTX: mbarrier.init.shared.b64
// PTX: mbarrier.arrive.expect_tx.shared.b64
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// PTX: mbarrier.try_wait.parity.shared.b64
// PTX-NOT: cp.async.cg
func.func @fused(%x: tensor<2x256xf16>, %w: tensor<256x64xf16>) -> tensor<2x64xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<2x256xf16>, %W = %w : tensor<256x64xf16>)
      -> tensor<2x64xf16> grid [4, 1, 1] block [128, 1, 1] forloop 8 {
    %xt = input_loader %X imap <> fmap 1 : tensor<2x256xf16> -> !mirage_block.stensor<2x32xf16>
    %wt = input_loader %W imap <x = 1> fmap 0 : tensor<256x64xf16> -> !mirage_block.stensor<32x16xf16>
    %mm = matmul %xt, %wt : !mirage_block.stensor<2x32xf16>, !mirage_block.stensor<32x16xf16> -> !mirage_block.stensor<2x16xf16>
    %acc = forloop_accum %mm sum : !mirage_block.stensor<2x16xf16> -> !mirage_block.stensor<2x16xf16>
    %out = output_saver %acc omap <x = 1> : !mirage_block.stensor<2x16xf16> -> tensor<2x64xf16>
    yield %out : tensor<2x64xf16>
  }
  return %o : tensor<2x64xf16>
}

// -----

// A tile whose rows are not whole 16-byte chunks (6 f16) is not staged, so
// nothing is copied by TMA; a tile of 2x8 f16 (32 bytes, not a multiple of
// the 128 bytes TMA writes are aligned to) keeps cp.async for every tile.
// CHECK-LABEL: gpu.func @not_for_tma_kernel0
// CHECK-NOT: mirage.tensor_maps
// CHECK-NOT: mbarrier
// CHECK: nvvm.cp.async.shared.global
// CHECK: gpu.return
// PTX-LABEL: .visible .entry not_for_tma_kernel0(
// PTX: cp.async.cg
func.func @not_for_tma(%x: tensor<2x64xf16>, %w: tensor<64x8xf16>) -> tensor<2x8xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<2x64xf16>, %W = %w : tensor<64x8xf16>)
      -> tensor<2x8xf16> grid [1, 1, 1] block [128, 1, 1] forloop 8 {
    %xt = input_loader %X imap <> fmap 1 : tensor<2x64xf16> -> !mirage_block.stensor<2x8xf16>
    %wt = input_loader %W imap <> fmap 0 : tensor<64x8xf16> -> !mirage_block.stensor<8x8xf16>
    %mm = matmul %xt, %wt : !mirage_block.stensor<2x8xf16>, !mirage_block.stensor<8x8xf16> -> !mirage_block.stensor<2x8xf16>
    %acc = forloop_accum %mm sum : !mirage_block.stensor<2x8xf16> -> !mirage_block.stensor<2x8xf16>
    %out = output_saver %acc omap <> : !mirage_block.stensor<2x8xf16> -> tensor<2x8xf16>
    yield %out : tensor<2x8xf16>
  }
  return %o : tensor<2x8xf16>
}
