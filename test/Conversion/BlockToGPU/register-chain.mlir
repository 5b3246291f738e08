// RUN: mirage-opt %s --split-input-file --convert-mirage-block-to-gpu | FileCheck %s
// RUN: mirage-opt %s --split-input-file --convert-mirage-block-to-gpu=tensor-cores=false | FileCheck %s --check-prefix=SIMT
// RUN: mirage-opt %s --split-input-file --mirage-to-ptx-pipeline=chip=sm_90a | FileCheck %s --check-prefix=PTX
// RUN: mirage-opt %s --split-input-file --mirage-to-ptx-pipeline=chip=sm_90a | FileCheck %s --check-prefix=LOOP

// A register chain: in `E = exp(Q x K)`, `forloop_accum (E x V) sum` and
// `forloop_accum E sum_last`, E never leaves registers. Each warp computes
// whole 16-row strips of E, rounds them to f16 and packs them into the lhs
// fragments of E x V (the accumulator fragment of two neighbouring 8-column
// tiles is the lhs fragment of one 16-element step); the row sums of E stay
// in registers too. E's values are rounded two at a time (one packed
// `cvt.rn.f16x2.f32` per pair, whose result is also E's lhs fragment):
// single conversions would share the special-function unit with `ex2`. No shared tile holds E, no barrier separates the two
// matmuls, and the row sums of a quad of lanes meet by shuffles after the
// loop.

// 64 rows and 4 warps: one 16-row strip per warp, all 32 keys of it. Each
// thread carries the 8 tiles of its 16x64 strip of E x V (32 registers) and
// the sums of its two rows (2).
// CHECK-LABEL: gpu.func @attention_kernel0
// CHECK: scf.for %{{.*}} iter_args({{.*}}) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)
// CHECK: nvvm.mma.sync
// CHECK-NOT: gpu.barrier
// CHECK: nvvm.convert.f32x2.to.f16x2
// CHECK-NOT: gpu.barrier
// CHECK: math.exp
// CHECK-NOT: gpu.barrier
// CHECK: nvvm.convert.f32x2.to.f16x2
// CHECK-NOT: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK: nvvm.mma.sync
// CHECK-NOT: gpu.barrier
// CHECK-NOT: llvm.store
// CHECK: scf.yield
// The row sums of each quad of lanes (its 4 threads hold one row's columns).
// CHECK: gpu.shuffle  xor %{{.*}}, %c2_i32, %c32_i32 : f32
// CHECK: gpu.shuffle  xor %{{.*}}, %c1_i32{{.*}}, %c32_i32{{.*}} : f32
// CHECK: gpu.return
// Without tensor cores, E is a shared tile.
// SIMT-LABEL: gpu.func @attention_kernel0
// SIMT: scf.for
// SIMT: math.exp
// SIMT: gpu.barrier
// The B fragments of two neighbouring 8-column tiles (of K, then of V) come
// from one transposed ldmatrix.x4: 2 key steps x (4 steps of K's 64 rows +
// 4 pairs of V's 8 column tiles) = 16, no .x2.
// K's and V's stage tiles are swizzled, and a stage's offset is a multiple
// of the swizzle's period, so each fragment's swizzled position within a
// stage is computed once, before the loop: in the loop an address is the
// stage's base plus one of them, with no swizzle arithmetic (xor) from the
// loop body's first load to the wait for the next stage.
// Q is loop-invariant: its fragments (4 loads) are loaded once, before the
// loop, and stay in registers.
// LOOP-LABEL: .visible .entry attention_kernel0(
// LOOP-COUNT-4: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// LOOP-NOT: ldmatrix
// LOOP: bra.uni
// LOOP-NOT: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// LOOP-NOT: xor.b64
// LOOP: mbarrier.try_wait
// PTX-LABEL: .visible .entry attention_kernel0(
// PTX-NOT: .local
// PTX-COUNT-4: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX-NOT: ldmatrix
// PTX-COUNT-16: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// PTX-NOT: ldmatrix
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX-NOT: ldmatrix
// PTX-NOT: cvt.rn.f16.f32
// PTX: shfl.sync.bfly.b32
func.func @attention(%q: tensor<64x64xf16>, %k: tensor<64x128xf16>, %v: tensor<128x64xf16>) -> (tensor<64x64xf16>, tensor<64x1xf16>) {
  %o, %d = mirage_kernel.graph_def(%Q = %q : tensor<64x64xf16>, %K = %k : tensor<64x128xf16>, %V = %v : tensor<128x64xf16>) -> (tensor<64x64xf16>, tensor<64x1xf16>)
      grid [1, 1, 1] block [128, 1, 1] forloop 4 {
    %qt = input_loader %Q imap <> : tensor<64x64xf16> -> !mirage_block.stensor<64x64xf16>
    %kt = input_loader %K imap <> fmap 1 : tensor<64x128xf16> -> !mirage_block.stensor<64x32xf16>
    %vt = input_loader %V imap <> fmap 0 : tensor<128x64xf16> -> !mirage_block.stensor<32x64xf16>
    %s = matmul %qt, %kt : !mirage_block.stensor<64x64xf16>, !mirage_block.stensor<64x32xf16> -> !mirage_block.stensor<64x32xf16>
    %e = exp %s : !mirage_block.stensor<64x32xf16>
    %ev = matmul %e, %vt : !mirage_block.stensor<64x32xf16>, !mirage_block.stensor<32x64xf16> -> !mirage_block.stensor<64x64xf16>
    %acc = forloop_accum %ev sum : !mirage_block.stensor<64x64xf16> -> !mirage_block.stensor<64x64xf16>
    %den = forloop_accum %e sum_last : !mirage_block.stensor<64x32xf16> -> !mirage_block.stensor<64x1xf16>
    %oa = output_saver %acc omap <> : !mirage_block.stensor<64x64xf16> -> tensor<64x64xf16>
    %od = output_saver %den omap <> : !mirage_block.stensor<64x1xf16> -> tensor<64x1xf16>
    yield %oa, %od : tensor<64x64xf16>, tensor<64x1xf16>
  }
  return %o, %d : tensor<64x64xf16>, tensor<64x1xf16>
}

// -----

// One 16-row strip for 4 warps: the warps split the 64 keys of an iteration
// into 4 slices of 16, each warp's strip of E is 16x16, and after the loop
// the slices' partial products and row sums meet in shared memory and are
// added in slice order.
// CHECK-LABEL: gpu.func @split_keys_kernel0
// CHECK-DAG: %[[PRODUCTS:.*]] = memref.view %{{.*}} to memref<4096xf32, #gpu.address_space<workgroup>>
// CHECK-DAG: %[[ROWS:.*]] = memref.view %{{.*}} to memref<64xf32, #gpu.address_space<workgroup>>
// CHECK: scf.for %{{.*}} iter_args({{.*}}) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)
// CHECK-COUNT-8: nvvm.mma.sync
// CHECK-NOT: gpu.barrier
// CHECK: math.exp
// CHECK-COUNT-8: nvvm.mma.sync
// CHECK-NOT: gpu.barrier
// CHECK: scf.yield
// CHECK: memref.extract_aligned_pointer_as_index %[[PRODUCTS]]
// CHECK: gpu.barrier
// CHECK: gpu.shuffle  xor %{{.*}}, %c2_i32, %c32_i32 : f32
// CHECK: gpu.shuffle  xor %{{.*}}, %c1_i32{{.*}}, %c32_i32{{.*}} : f32
// CHECK: memref.store %{{.*}}, %[[ROWS]]
// CHECK: gpu.barrier
// CHECK: gpu.return
func.func @split_keys(%q: tensor<16x64xf16>, %k: tensor<64x256xf16>, %v: tensor<256x64xf16>) -> (tensor<16x64xf16>, tensor<16x1xf16>) {
  %o, %d = mirage_kernel.graph_def(%Q = %q : tensor<16x64xf16>, %K = %k : tensor<64x256xf16>, %V = %v : tensor<256x64xf16>) -> (tensor<16x64xf16>, tensor<16x1xf16>)
      grid [1, 1, 1] block [128, 1, 1] forloop 4 {
    %qt = input_loader %Q imap <> : tensor<16x64xf16> -> !mirage_block.stensor<16x64xf16>
    %kt = input_loader %K imap <> fmap 1 : tensor<64x256xf16> -> !mirage_block.stensor<64x64xf16>
    %vt = input_loader %V imap <> fmap 0 : tensor<256x64xf16> -> !mirage_block.stensor<64x64xf16>
    %s = matmul %qt, %kt : !mirage_block.stensor<16x64xf16>, !mirage_block.stensor<64x64xf16> -> !mirage_block.stensor<16x64xf16>
    %e = exp %s : !mirage_block.stensor<16x64xf16>
    %ev = matmul %e, %vt : !mirage_block.stensor<16x64xf16>, !mirage_block.stensor<64x64xf16> -> !mirage_block.stensor<16x64xf16>
    %acc = forloop_accum %ev sum : !mirage_block.stensor<16x64xf16> -> !mirage_block.stensor<16x64xf16>
    %den = forloop_accum %e sum_last : !mirage_block.stensor<16x64xf16> -> !mirage_block.stensor<16x1xf16>
    %oa = output_saver %acc omap <> : !mirage_block.stensor<16x64xf16> -> tensor<16x64xf16>
    %od = output_saver %den omap <> : !mirage_block.stensor<16x1xf16> -> tensor<16x1xf16>
    yield %oa, %od : tensor<16x64xf16>, tensor<16x1xf16>
  }
  return %o, %d : tensor<16x64xf16>, tensor<16x1xf16>
}

// -----

// Without an epilogue or row sums: E = Q x K is rounded to f16 and packed.
// CHECK-LABEL: gpu.func @plain_chain_kernel0
// CHECK: scf.for %{{.*}} iter_args({{.*}}) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)
// CHECK: nvvm.mma.sync
// CHECK-NOT: gpu.barrier
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK-NOT: gpu.barrier
// CHECK: nvvm.mma.sync
// CHECK-NOT: gpu.barrier
// CHECK: scf.yield
func.func @plain_chain(%q: tensor<64x64xf16>, %k: tensor<64x128xf16>, %v: tensor<128x64xf16>) -> tensor<64x64xf16> {
  %o = mirage_kernel.graph_def(%Q = %q : tensor<64x64xf16>, %K = %k : tensor<64x128xf16>, %V = %v : tensor<128x64xf16>) -> tensor<64x64xf16>
      grid [1, 1, 1] block [128, 1, 1] forloop 4 {
    %qt = input_loader %Q imap <> : tensor<64x64xf16> -> !mirage_block.stensor<64x64xf16>
    %kt = input_loader %K imap <> fmap 1 : tensor<64x128xf16> -> !mirage_block.stensor<64x32xf16>
    %vt = input_loader %V imap <> fmap 0 : tensor<128x64xf16> -> !mirage_block.stensor<32x64xf16>
    %s = matmul %qt, %kt : !mirage_block.stensor<64x64xf16>, !mirage_block.stensor<64x32xf16> -> !mirage_block.stensor<64x32xf16>
    %ev = matmul %s, %vt : !mirage_block.stensor<64x32xf16>, !mirage_block.stensor<32x64xf16> -> !mirage_block.stensor<64x64xf16>
    %acc = forloop_accum %ev sum : !mirage_block.stensor<64x64xf16> -> !mirage_block.stensor<64x64xf16>
    %oa = output_saver %acc omap <> : !mirage_block.stensor<64x64xf16> -> tensor<64x64xf16>
    yield %oa : tensor<64x64xf16>
  }
  return %o : tensor<64x64xf16>
}

// -----

// E read by anything but the second matmul and sum_last accumulators (here
// a sum of E itself) is no chain: E is a shared tile, a barrier ends the
// first matmul.
// CHECK-LABEL: gpu.func @shared_intermediate_kernel0
// CHECK: scf.for
// CHECK: nvvm.mma.sync
// CHECK: math.exp
// CHECK: llvm.store
// CHECK: gpu.barrier
// CHECK: nvvm.mma.sync
func.func @shared_intermediate(%q: tensor<64x64xf16>, %k: tensor<64x128xf16>, %v: tensor<128x64xf16>) -> (tensor<64x64xf16>, tensor<64x32xf16>) {
  %o, %d = mirage_kernel.graph_def(%Q = %q : tensor<64x64xf16>, %K = %k : tensor<64x128xf16>, %V = %v : tensor<128x64xf16>) -> (tensor<64x64xf16>, tensor<64x32xf16>)
      grid [1, 1, 1] block [128, 1, 1] forloop 4 {
    %qt = input_loader %Q imap <> : tensor<64x64xf16> -> !mirage_block.stensor<64x64xf16>
    %kt = input_loader %K imap <> fmap 1 : tensor<64x128xf16> -> !mirage_block.stensor<64x32xf16>
    %vt = input_loader %V imap <> fmap 0 : tensor<128x64xf16> -> !mirage_block.stensor<32x64xf16>
    %s = matmul %qt, %kt : !mirage_block.stensor<64x64xf16>, !mirage_block.stensor<64x32xf16> -> !mirage_block.stensor<64x32xf16>
    %e = exp %s : !mirage_block.stensor<64x32xf16>
    %ev = matmul %e, %vt : !mirage_block.stensor<64x32xf16>, !mirage_block.stensor<32x64xf16> -> !mirage_block.stensor<64x64xf16>
    %acc = forloop_accum %ev sum : !mirage_block.stensor<64x64xf16> -> !mirage_block.stensor<64x64xf16>
    %es = forloop_accum %e sum : !mirage_block.stensor<64x32xf16> -> !mirage_block.stensor<64x32xf16>
    %oa = output_saver %acc omap <> : !mirage_block.stensor<64x64xf16> -> tensor<64x64xf16>
    %od = output_saver %es omap <> : !mirage_block.stensor<64x32xf16> -> tensor<64x32xf16>
    yield %oa, %od : tensor<64x64xf16>, tensor<64x32xf16>
  }
  return %o, %d : tensor<64x64xf16>, tensor<64x32xf16>
}

// -----

// Fewer than 16 rows (8 here, as a decode token's GQA group has 4 to 8)
// chain as one partial strip: its rows past the end are computed from the
// last row's values and dropped, so the stores of the product and the row
// sums are guarded by `row < 8`. The 4 warps split the 64 keys of an
// iteration; no barrier in the loop after its stage's.
// CHECK-LABEL: gpu.func @partial_strip_kernel0
// CHECK: scf.for %{{.*}} iter_args(
// CHECK: nvvm.mma.sync
// CHECK-NOT: gpu.barrier
// CHECK: math.exp
// CHECK-NOT: gpu.barrier
// CHECK: nvvm.mma.sync
// CHECK: scf.yield
// CHECK: arith.cmpi ult, %{{.*}}, %c8
// CHECK-NEXT: scf.if
// PTX-LABEL: .visible .entry partial_strip_kernel0(
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX: ret;
func.func @partial_strip(%q: tensor<8x64xf16>, %k: tensor<64x128xf16>, %v: tensor<128x64xf16>) -> (tensor<8x64xf16>, tensor<8x1xf16>) {
  %o:2 = mirage_kernel.graph_def(%Q = %q : tensor<8x64xf16>, %K = %k : tensor<64x128xf16>, %V = %v : tensor<128x64xf16>) -> (tensor<8x64xf16>, tensor<8x1xf16>)
      grid [1, 1, 1] block [128, 1, 1] forloop 2 {
    %qt = input_loader %Q imap <> : tensor<8x64xf16> -> !mirage_block.stensor<8x64xf16>
    %kt = input_loader %K imap <> fmap 1 : tensor<64x128xf16> -> !mirage_block.stensor<64x64xf16>
    %vt = input_loader %V imap <> fmap 0 : tensor<128x64xf16> -> !mirage_block.stensor<64x64xf16>
    %s = matmul %qt, %kt : !mirage_block.stensor<8x64xf16>, !mirage_block.stensor<64x64xf16> -> !mirage_block.stensor<8x64xf16>
    %e = exp %s : !mirage_block.stensor<8x64xf16>
    %ev = matmul %e, %vt : !mirage_block.stensor<8x64xf16>, !mirage_block.stensor<64x64xf16> -> !mirage_block.stensor<8x64xf16>
    %acc = forloop_accum %ev sum : !mirage_block.stensor<8x64xf16> -> !mirage_block.stensor<8x64xf16>
    %l = forloop_accum %e sum_last : !mirage_block.stensor<8x64xf16> -> !mirage_block.stensor<8x1xf16>
    %oa = output_saver %acc omap <> : !mirage_block.stensor<8x64xf16> -> tensor<8x64xf16>
    %ol = output_saver %l omap <> : !mirage_block.stensor<8x1xf16> -> tensor<8x1xf16>
    yield %oa, %ol : tensor<8x64xf16>, tensor<8x1xf16>
  }
  return %o#0, %o#1 : tensor<8x64xf16>, tensor<8x1xf16>
}
