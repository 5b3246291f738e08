// RUN: mirage-opt %s --split-input-file --mirage-test-kernel-schedule=chip=sm_90a -o /dev/null | FileCheck %s --check-prefix=SCHED
// RUN: mirage-opt %s --split-input-file --mirage-to-ptx-pipeline=chip=sm_90a | FileCheck %s --check-prefix=PTX
// RUN: mirage-opt %s --split-input-file --mirage-to-ptx-pipeline="chip=sm_90a row-programs=false" | FileCheck %s --check-prefix=SUMS

// reduction_max takes a row's maximum the way a row is summed, with
// maximum in place of addition and -inf in place of 0: in a row program, a
// tree of max.NaN.f32 over each thread's runs, a butterfly over the warp
// and one f32 per warp through shared memory; otherwise emitSums' slices.
// Softmax as models write it, over one 4096-element row per block.
// SCHED-LABEL: kernel stable_softmax#0 on sm_90a: threads 128
// SCHED:         row program width 8 lanes 128 runs 4
// PTX-LABEL: .visible .entry stable_softmax_kernel0(
// PTX-COUNT-4: ld.global.v4.b32
// PTX-COUNT-31: max.NaN.f32
// PTX: shfl.sync.bfly.b32
// PTX: max.NaN.f32
// PTX: bar.sync
// PTX: ex2.approx.f32
// PTX: bar.sync
// PTX: rcp.approx.f32
// PTX-COUNT-4: st.global.v4.b32
// SUMS-LABEL: .visible .entry stable_softmax_kernel0(
// SUMS: max.NaN.f32
// SUMS: ex2.approx.f32
func.func @stable_softmax(%s: tensor<32x4096xf16>) -> tensor<32x4096xf16> {
  %o = mirage_kernel.graph_def(%S = %s : tensor<32x4096xf16>) -> tensor<32x4096xf16> grid [32, 1, 1] block [128, 1, 1] forloop 1 {
    %t = input_loader %S imap <x = 0> : tensor<32x4096xf16> -> !mirage_block.stensor<1x4096xf16>
    %m = reduction_max %t dim 1 : !mirage_block.stensor<1x4096xf16> -> !mirage_block.stensor<1x1xf16>
    %d = sub %t, %m : !mirage_block.stensor<1x4096xf16>, !mirage_block.stensor<1x1xf16> -> !mirage_block.stensor<1x4096xf16>
    %e = exp %d : !mirage_block.stensor<1x4096xf16>
    %r = reduction %e dim 1 : !mirage_block.stensor<1x4096xf16> -> !mirage_block.stensor<1x1xf16>
    %q = div %e, %r : !mirage_block.stensor<1x4096xf16>, !mirage_block.stensor<1x1xf16> -> !mirage_block.stensor<1x4096xf16>
    %w = output_saver %q omap <x = 0> : !mirage_block.stensor<1x4096xf16> -> tensor<32x4096xf16>
    yield %w : tensor<32x4096xf16>
  }
  return %o : tensor<32x4096xf16>
}

// -----

// Rows of 8 are too short for 128 threads' runs: no row program, the
// maximum goes through emitSums (one thread per row here; LLVM keeps the
// exact maxima of f16 values in f16).
// SCHED-LABEL: kernel short_rows#0 on sm_90a: threads 128
// SCHED-NOT: row program
// PTX-LABEL: .visible .entry short_rows_kernel0(
// PTX: max.NaN.f{{16|32}}
// SUMS-LABEL: .visible .entry short_rows_kernel0(
// SUMS: max.NaN.f{{16|32}}
func.func @short_rows(%s: tensor<2x8x8xf16>) -> tensor<2x8x1xf16> {
  %o = mirage_kernel.graph_def(%S = %s : tensor<2x8x8xf16>) -> tensor<2x8x1xf16> grid [2, 2, 1] block [128, 1, 1] forloop 1 {
    %t = input_loader %S imap <x = 0, y = 1> : tensor<2x8x8xf16> -> !mirage_block.stensor<1x4x8xf16>
    %m = reduction_max %t dim 2 : !mirage_block.stensor<1x4x8xf16> -> !mirage_block.stensor<1x4x1xf16>
    %w = output_saver %m omap <x = 0, y = 1> : !mirage_block.stensor<1x4x1xf16> -> tensor<2x8x1xf16>
    yield %w : tensor<2x8x1xf16>
  }
  return %o : tensor<2x8x1xf16>
}
