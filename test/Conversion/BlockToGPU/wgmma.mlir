// RUN: mirage-opt %s --split-input-file --convert-mirage-block-to-gpu=wgmma=true | FileCheck %s
// RUN: mirage-opt %s --split-input-file --convert-mirage-block-to-gpu | FileCheck %s --check-prefix=DEFAULT
// RUN: mirage-opt %s --split-input-file --convert-mirage-block-to-gpu="chip=sm_80 wgmma=true" | FileCheck %s --check-prefix=SM80
// RUN: mirage-opt %s --split-input-file --mirage-to-ptx-pipeline="chip=sm_90a wgmma=true" | FileCheck %s --check-prefix=PTX

// With wgmma=true, the f16 matmuls of sm_90a kernels run on warpgroup tensor
// cores: both operands are copied K-major into shared memory (core matrices
// of 8x8 f16, 128 bytes each), fenced for the async proxy and synchronised,
// then each warpgroup issues wgmma.mma_async m64nNk16 steps on descriptors
// (leading byte offset 128, stride byte offset depth * 16), commits, waits
// and stores its f32 sums. sm_80 has no wgmma: mma.sync there; wgmma is off
// by default.

// 64x32 result: one 64-row tile, N = 32, 128 threads = one warpgroup.
// Descriptor constant: (128 >> 4) << 16 | (64 * 16 >> 4) << 32.
// CHECK-LABEL: gpu.func @standard_kernel0
// CHECK: llvm.store %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
// CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: gpu.barrier
// CHECK: nvvm.wgmma.fence.aligned
// CHECK: scf.for %{{.*}} = %{{.*}} to %c4{{.*}} step %c1{{.*}} iter_args
// CHECK: arith.constant 274878431232 : i64
// CHECK: nvvm.wgmma.mma_async %{{.*}}, %{{.*}}, %{{.*}}, <m = 64, n = 32, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>]
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: llvm.store %{{.*}} {alignment = 4 : i64} : vector<2xf16>, !llvm.ptr<3>
// CHECK: gpu.barrier
// DEFAULT-LABEL: gpu.func @standard_kernel0
// DEFAULT-NOT: wgmma
// DEFAULT: nvvm.mma.sync
// DEFAULT-NOT: wgmma
// SM80-LABEL: gpu.func @standard_kernel0
// SM80-NOT: wgmma
// SM80: nvvm.mma.sync
// SM80-NOT: wgmma
// PTX-LABEL: .visible .entry standard_kernel0(
// PTX-NOT: .local
// PTX: fence.proxy.async.shared::cta;
// PTX: wgmma.fence.sync.aligned;
// PTX: wgmma.mma_async.sync.aligned.m64n32k16.f32.f16.f16
// PTX: wgmma.commit_group.sync.aligned;
// PTX: wgmma.wait_group.sync.aligned
func.func @standard(%a: tensor<64x64xf16>, %b: tensor<64x32xf16>) -> tensor<64x32xf16> {
  %o = mirage_kernel.graph_def(%A = %a : tensor<64x64xf16>, %B = %b : tensor<64x32xf16>) -> tensor<64x32xf16>
      grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    %at = input_loader %A imap <> fmap -1 : tensor<64x64xf16> -> !mirage_block.stensor<64x64xf16>
    %bt = input_loader %B imap <> fmap -1 : tensor<64x32xf16> -> !mirage_block.stensor<64x32xf16>
    %y = matmul %at, %bt : !mirage_block.stensor<64x64xf16>, !mirage_block.stensor<64x32xf16> -> !mirage_block.stensor<64x32xf16>
    %s = output_saver %y omap <> : !mirage_block.stensor<64x32xf16> -> tensor<64x32xf16>
    yield %s : tensor<64x32xf16>
  }
  return %o : tensor<64x32xf16>
}

// -----

// 8x64 result: computed transposed (out^T = rhs^T x lhs^T), so the 64 rows
// of the instruction run over the 64 result columns and N = 8 over the 8
// result rows; the sums land transposed, element by element.
// CHECK-LABEL: gpu.func @swapped_kernel0
// CHECK: nvvm.wgmma.mma_async %{{.*}}, %{{.*}}, %{{.*}}, <m = 64, n = 8, k = 16>
// CHECK-COUNT-4: memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<512xf16, #gpu.address_space<workgroup>>
// PTX-LABEL: .visible .entry swapped_kernel0(
// PTX-NOT: .local
// PTX: wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16
func.func @swapped(%x: tensor<8x64xf16>, %w: tensor<64x64xf16>) -> tensor<8x64xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<8x64xf16>, %W = %w : tensor<64x64xf16>) -> tensor<8x64xf16>
      grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    %xt = input_loader %X imap <> fmap -1 : tensor<8x64xf16> -> !mirage_block.stensor<8x64xf16>
    %wt = input_loader %W imap <> fmap -1 : tensor<64x64xf16> -> !mirage_block.stensor<64x64xf16>
    %y = matmul %xt, %wt : !mirage_block.stensor<8x64xf16>, !mirage_block.stensor<64x64xf16> -> !mirage_block.stensor<8x64xf16>
    %s = output_saver %y omap <> : !mirage_block.stensor<8x64xf16> -> tensor<8x64xf16>
    yield %s : tensor<8x64xf16>
  }
  return %o : tensor<8x64xf16>
}

// -----

// A gated MLP µGraph (the form of the saved upstream ones): two
// forloop_accum sums of in-loop matmuls keep their wgmma sums in registers
// through the loop (4 per thread each: m64n8k16), written once after it.
// 24 result columns pad to 64 rows of the instruction: padding rows of the
// copy read zeros, and their sums are not stored.
// CHECK-LABEL: gpu.func @gated_mlp_kernel0
// CHECK: scf.for %{{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (f32, f32, f32, f32, f32, f32, f32, f32)
// CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : vector<8xf16>
// CHECK: nvvm.wgmma.mma_async %{{.*}}, %{{.*}}, %{{.*}}, <m = 64, n = 8, k = 16>
// CHECK: nvvm.wgmma.mma_async %{{.*}}, %{{.*}}, %{{.*}}, <m = 64, n = 8, k = 16>
// CHECK: scf.yield %{{.*}} : f32, f32, f32, f32, f32, f32, f32, f32
// CHECK: arith.cmpi ult, %{{.*}}, %c24
// CHECK: scf.if
// The PTX of this matmul-heavy kernel shows both Hopper paths: its staged
// tiles arrive by TMA (cp.async.bulk.tensor on mbarriers, tma.mlir) and its
// matmuls run on wgmma.
// PTX-LABEL: .visible .entry gated_mlp_kernel0(
// PTX-NOT: .local
// PTX: mbarrier.init.shared.b64
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// PTX: mbarrier.try_wait.parity.shared.b64
// PTX-COUNT-2: wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16
func.func @gated_mlp(%x: tensor<8x256xf16>, %w1: tensor<256x48xf16>, %w2: tensor<256x48xf16>) -> tensor<8x48xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<8x256xf16>, %W1 = %w1 : tensor<256x48xf16>, %W2 = %w2 : tensor<256x48xf16>) -> tensor<8x48xf16>
      grid [2, 1, 1] block [128, 1, 1] forloop 4 {
    %xt = input_loader %X imap <> fmap 1 : tensor<8x256xf16> -> !mirage_block.stensor<8x64xf16>
    %at = input_loader %W1 imap <x = 1> fmap 0 : tensor<256x48xf16> -> !mirage_block.stensor<64x24xf16>
    %bt = input_loader %W2 imap <x = 1> fmap 0 : tensor<256x48xf16> -> !mirage_block.stensor<64x24xf16>
    %g = matmul %xt, %at : !mirage_block.stensor<8x64xf16>, !mirage_block.stensor<64x24xf16> -> !mirage_block.stensor<8x24xf16>
    %u = matmul %xt, %bt : !mirage_block.stensor<8x64xf16>, !mirage_block.stensor<64x24xf16> -> !mirage_block.stensor<8x24xf16>
    %gs = forloop_accum %g sum : !mirage_block.stensor<8x24xf16> -> !mirage_block.stensor<8x24xf16>
    %us = forloop_accum %u sum : !mirage_block.stensor<8x24xf16> -> !mirage_block.stensor<8x24xf16>
    %a = silu %gs : !mirage_block.stensor<8x24xf16>
    %y = mul %a, %us : !mirage_block.stensor<8x24xf16>, !mirage_block.stensor<8x24xf16> -> !mirage_block.stensor<8x24xf16>
    %s = output_saver %y omap <x = 1> : !mirage_block.stensor<8x24xf16> -> tensor<8x48xf16>
    yield %s : tensor<8x48xf16>
  }
  return %o : tensor<8x48xf16>
}
