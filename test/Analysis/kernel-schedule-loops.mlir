// RUN: mirage-opt %s --mirage-test-kernel-schedule="chip=sm_90a row-programs=false" -o /dev/null | FileCheck %s --check-prefix=PRELOAD
// RUN: mirage-opt %s --mirage-test-kernel-schedule=chip=sm_90a -o /dev/null | FileCheck %s --check-prefix=ROW

// Small tiles in for-loops: the tiles of every iteration preloaded at once,
// and row programs with for-loops (unrolled, sums in registers).

// As a row program (the default), the combining kernel takes no shared
// memory: its 128 threads each hold one element of the part, every thread
// reads the part's sum itself, the loop is unrolled and its sum stays in a
// register.
// ROW-LABEL: kernel combine#0 on sm_90a: threads 128, shared 0 bytes
// ROW-NEXT:    choices:
// ROW-NEXT:    stages 0
// ROW-NEXT:    row program width 1 lanes 128 runs 1
// ROW-NOT:     buffer
// Rows of 4 elements, 16 a block, take 4 of the 8 threads per row that the
// block offers: with no sum along the rows, the other 64 threads are idle.
// ROW-LABEL: kernel long_loop#0
// ROW:         row program width 1 lanes 4 runs 1
// A split's combining kernel: each iteration reads one part (128 halves,
// staged) and that part's row sum, 2 bytes, which staging cannot copy. All
// 16 iterations' sums (32 bytes) are preloaded at once before the loop,
// each iteration reading its own; read in place, each iteration would wait
// for a global load. They live until the loop ends: no tile of an
// iteration takes their place.
// PRELOAD-LABEL: kernel combine#0 on sm_90a: threads 128, shared 1984 bytes
// PRELOAD:         stages 4 (tma)
// PRELOAD-NEXT:    staged #0 input_loader
// PRELOAD-NEXT:    preloaded #1 input_loader
// PRELOAD-NEXT:    buffer [0, 32) align 16
// PRELOAD-NOT:     buffer [0,
func.func @combine(%p: tensor<8x4x2048xf16>, %l: tensor<8x4x16xf16>) -> tensor<8x4x128xf16> {
  %o = mirage_kernel.graph_def(%P = %p : tensor<8x4x2048xf16>, %L = %l : tensor<8x4x16xf16>) -> (tensor<8x4x128xf16>)
      grid [8, 4, 1] block [128, 1, 1] forloop 16 {
    %pt = input_loader %P imap <x = 0, y = 1> fmap 2 : tensor<8x4x2048xf16> -> !mirage_block.stensor<1x1x128xf16>
    %lt = input_loader %L imap <x = 0, y = 1> fmap 2 : tensor<8x4x16xf16> -> !mirage_block.stensor<1x1x1xf16>
    %e = exp %lt : !mirage_block.stensor<1x1x1xf16>
    %f = mul_scalar %e by 2.0 : !mirage_block.stensor<1x1x1xf16>
    %w = mul %pt, %f : !mirage_block.stensor<1x1x128xf16>, !mirage_block.stensor<1x1x1xf16> -> !mirage_block.stensor<1x1x128xf16>
    %acc = forloop_accum %w sum : !mirage_block.stensor<1x1x128xf16> -> !mirage_block.stensor<1x1x128xf16>
    %s = output_saver %acc omap <x = 0, y = 1> : !mirage_block.stensor<1x1x128xf16> -> tensor<8x4x128xf16>
    yield %s : tensor<8x4x128xf16>
  }
  return %o : tensor<8x4x128xf16>
}

// Tiles of 8 bytes over 64 iterations take 8 KiB, more than the 4 KiB
// preloaded at once: read in place.
// PRELOAD-LABEL: kernel long_loop#0 on sm_90a
// PRELOAD-NOT:     preloaded
func.func @long_loop(%x: tensor<8x16x256xf16>) -> tensor<8x16x4xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<8x16x256xf16>) -> (tensor<8x16x4xf16>)
      grid [8, 1, 1] block [128, 1, 1] forloop 64 {
    %xt = input_loader %X imap <x = 0> fmap 2 : tensor<8x16x256xf16> -> !mirage_block.stensor<1x16x4xf16>
    %acc = forloop_accum %xt sum : !mirage_block.stensor<1x16x4xf16> -> !mirage_block.stensor<1x16x4xf16>
    %s = output_saver %acc omap <x = 0> : !mirage_block.stensor<1x16x4xf16> -> tensor<8x16x4xf16>
    yield %s : tensor<8x16x4xf16>
  }
  return %o : tensor<8x16x4xf16>
}

// FlashDecoding's combining kernel (the online-softmax split's): every
// thread holds the parts' maxima whole (a W row, loop-invariant) and takes
// their maximum itself, then rescales each part by exp(m_part - max) in a
// thread graph. No shared memory, no barrier.
// Op by op, its per-part sums and maxima are preloaded.
// PRELOAD-LABEL: kernel rescaled#0 on sm_90a
// PRELOAD:         preloaded #1 input_loader
// PRELOAD-NEXT:    preloaded #3 input_loader
// ROW-LABEL: kernel rescaled#0 on sm_90a: threads 128, shared 0 bytes
// ROW:         row program width 1 lanes 128 runs 1
// ROW-NOT:     buffer
func.func @rescaled(%p: tensor<8x4x2048xf16>, %l: tensor<8x4x16xf16>, %m: tensor<8x4x16xf16>) -> tensor<8x4x128xf16> {
  %o = mirage_kernel.graph_def(%P = %p : tensor<8x4x2048xf16>, %L = %l : tensor<8x4x16xf16>, %M = %m : tensor<8x4x16xf16>) -> (tensor<8x4x128xf16>)
      grid [8, 4, 1] block [128, 1, 1] forloop 16 {
    %pt = input_loader %P imap <x = 0, y = 1> fmap 2 : tensor<8x4x2048xf16> -> !mirage_block.stensor<1x1x128xf16>
    %lt = input_loader %L imap <x = 0, y = 1> fmap 2 : tensor<8x4x16xf16> -> !mirage_block.stensor<1x1x1xf16>
    %all = input_loader %M imap <x = 0, y = 1> : tensor<8x4x16xf16> -> !mirage_block.stensor<1x1x16xf16>
    %mt = input_loader %M imap <x = 0, y = 1> fmap 2 : tensor<8x4x16xf16> -> !mirage_block.stensor<1x1x1xf16>
    %max = reduction_max %all dim 2 : !mirage_block.stensor<1x1x16xf16> -> !mirage_block.stensor<1x1x1xf16>
    %w = thread_graph %mt, %max : !mirage_block.stensor<1x1x1xf16>, !mirage_block.stensor<1x1x1xf16> -> !mirage_block.stensor<1x1x1xf16> {
    ^bb0(%a: f16, %b: f16):
      %d = sub %a, %b : f16
      %e = exp %d : f16
      yield %e : f16
    }
    %pw = mul %pt, %w : !mirage_block.stensor<1x1x128xf16>, !mirage_block.stensor<1x1x1xf16> -> !mirage_block.stensor<1x1x128xf16>
    %num = forloop_accum %pw sum : !mirage_block.stensor<1x1x128xf16> -> !mirage_block.stensor<1x1x128xf16>
    %lw = mul %lt, %w : !mirage_block.stensor<1x1x1xf16>, !mirage_block.stensor<1x1x1xf16> -> !mirage_block.stensor<1x1x1xf16>
    %den = forloop_accum %lw sum : !mirage_block.stensor<1x1x1xf16> -> !mirage_block.stensor<1x1x1xf16>
    %y = div %num, %den : !mirage_block.stensor<1x1x128xf16>, !mirage_block.stensor<1x1x1xf16> -> !mirage_block.stensor<1x1x128xf16>
    %s = output_saver %y omap <x = 0, y = 1> : !mirage_block.stensor<1x1x128xf16> -> tensor<8x4x128xf16>
    yield %s : tensor<8x4x128xf16>
  }
  return %o : tensor<8x4x128xf16>
}
