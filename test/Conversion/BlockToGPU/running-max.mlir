// RUN: mirage-opt %s --split-input-file --mirage-test-kernel-schedule=chip=sm_90a -o /dev/null | FileCheck %s --check-prefix=SCHED
// RUN: mirage-opt %s --split-input-file --convert-mirage-block-to-gpu | FileCheck %s --check-prefix=GPU
// RUN: mirage-opt %s --split-input-file --mirage-to-ptx-pipeline=chip=sm_90a | FileCheck %s --check-prefix=PTX
// With running-max-chains=false a running maximum keeps the shared form
// (that of @flash_wide below).
// RUN: mirage-opt %s --split-input-file --mirage-test-kernel-schedule="chip=sm_90a running-max-chains=false" -o /dev/null | FileCheck %s --check-prefix=OFF
// RUN: mirage-translate --mirage-to-triton %s | FileCheck %s --check-prefix=TRITON

// A running maximum (online softmax, FlashAttention's form) in a register
// chain: E = exp(T - M) with T = 0.125 (Q x K) and M the running maximum of
// T's rows. Each warp holds its slice of an iteration's scores in
// registers, raises its rows' maxima (max over its columns, then a 4-lane
// butterfly), multiplies its product and row sums by exp(old - new), then
// takes E and multiplies it by V: no shared tile and no barrier in the
// loop. Here the 16 rows are one strip, so the 4 warps split the 64 keys of
// an iteration; each keeps its own maxima, and after the loop the block's
// maximum is the slices' largest and each slice's sums are rescaled by
// exp(m_slice - max) as they are added.
// SCHED-LABEL: kernel flash#0 on sm_90a
// SCHED-NOT: register sum
// OFF-LABEL: kernel flash#0 on sm_90a
// OFF: register sum #10 forloop_accum mma.sync
// OFF-NOT: register chain
// OFF-LABEL: kernel flash_wide#0 on sm_90a
// SCHED: running max #6 forloop_accum rescales #10 forloop_accum #11 forloop_accum
// SCHED: register chain #3 matmul -> #9 matmul row sums 1 registers [0, 36) running max #6 forloop_accum
// GPU-LABEL: gpu.func @flash_kernel0
// GPU: scf.for %{{.*}} iter_args({{.*}}) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)
// GPU-COUNT-8: nvvm.mma.sync
// GPU-NOT: gpu.barrier
// GPU: arith.maximumf
// GPU: gpu.shuffle  xor %{{.*}}, %c2_i32{{.*}}, %c32_i32{{.*}} : f32
// GPU-NEXT: arith.maximumf
// GPU: gpu.shuffle  xor %{{.*}}, %c1_i32{{.*}}, %c32_i32{{.*}} : f32
// GPU-NEXT: arith.maximumf
// GPU-NEXT: arith.maximumf %arg
// GPU-NOT: gpu.barrier
// GPU: math.exp2
// GPU-NOT: gpu.barrier
// GPU: arith.subf
// GPU-NOT: gpu.barrier
// GPU: math.exp2
// GPU-NOT: gpu.barrier
// GPU: nvvm.mma.sync
// GPU-NOT: gpu.barrier
// GPU: scf.yield
// GPU: gpu.barrier
// GPU: arith.maximumf
// GPU: gpu.return
// PTX-LABEL: .visible .entry flash_kernel0(
// PTX: mma.sync
// PTX: shfl.sync.bfly
// PTX: max.NaN.f32
// PTX: ex2.approx
// TRITON-LABEL: def flash_graph_def0(
// TRITON: acc6_old = acc6
// TRITON-NEXT: acc6 = tl.maximum(acc6, reduction_max5)
// TRITON-NEXT: acc6_scale = tl.where(acc6 == acc6_old, 1.0, tl.exp(acc6_old - acc6))
// TRITON-NEXT: acc10 = acc10 * acc6_scale
// TRITON-NEXT: acc11 = acc11 * acc6_scale
func.func @flash(%q: tensor<2x16x64xf16>, %k: tensor<2x64x1024xf16>, %v: tensor<2x1024x64xf16>) -> tensor<2x16x64xf16> {
  %o = mirage_kernel.graph_def(%Q = %q : tensor<2x16x64xf16>, %K = %k : tensor<2x64x1024xf16>, %V = %v : tensor<2x1024x64xf16>) -> tensor<2x16x64xf16> grid [2, 1, 1] block [128, 1, 1] forloop 16 {
    %qt = input_loader %Q imap <x = 0> : tensor<2x16x64xf16> -> !mirage_block.stensor<1x16x64xf16>
    %kt = input_loader %K imap <x = 0> fmap 2 : tensor<2x64x1024xf16> -> !mirage_block.stensor<1x64x64xf16>
    %vt = input_loader %V imap <x = 0> fmap 1 : tensor<2x1024x64xf16> -> !mirage_block.stensor<1x64x64xf16>
    %s = matmul %qt, %kt : !mirage_block.stensor<1x16x64xf16>, !mirage_block.stensor<1x64x64xf16> -> !mirage_block.stensor<1x16x64xf16>
    %t = mul_scalar %s by 0.125 : !mirage_block.stensor<1x16x64xf16>
    %r = reduction_max %t dim 2 : !mirage_block.stensor<1x16x64xf16> -> !mirage_block.stensor<1x16x1xf16>
    %m = forloop_accum %r max : !mirage_block.stensor<1x16x1xf16> -> !mirage_block.stensor<1x16x1xf16>
    %d = sub %t, %m : !mirage_block.stensor<1x16x64xf16>, !mirage_block.stensor<1x16x1xf16> -> !mirage_block.stensor<1x16x64xf16>
    %e = exp %d : !mirage_block.stensor<1x16x64xf16>
    %ev = matmul %e, %vt : !mirage_block.stensor<1x16x64xf16>, !mirage_block.stensor<1x64x64xf16> -> !mirage_block.stensor<1x16x64xf16>
    %acc = forloop_accum %ev sum : !mirage_block.stensor<1x16x64xf16> -> !mirage_block.stensor<1x16x64xf16>
    %l = forloop_accum %e sum_last : !mirage_block.stensor<1x16x64xf16> -> !mirage_block.stensor<1x16x1xf16>
    %y = div %acc, %l : !mirage_block.stensor<1x16x64xf16>, !mirage_block.stensor<1x16x1xf16> -> !mirage_block.stensor<1x16x64xf16>
    %ot = output_saver %y omap <x = 0> : !mirage_block.stensor<1x16x64xf16> -> tensor<2x16x64xf16>
    yield %ot : tensor<2x16x64xf16>
  }
  return %o : tensor<2x16x64xf16>
}

// -----

// With 8 warps the 64 keys of an iteration do not split into whole 16-key
// steps per warp: no chain. The kernel keeps the maximum so far in its f32
// tile and, at each step, stores the factors exp(old - new) beside it and
// multiplies the sums the shift reaches by them, row by row: the product's
// mma.sync registers (the fragment rows g and g + 8 of each tile) and the
// row sums' shared tile.
// SCHED-LABEL: kernel flash_wide#0 on sm_90a
// SCHED: register sum #10 forloop_accum mma.sync
// SCHED: running max #6 forloop_accum rescales #10 forloop_accum #11 forloop_accum
// SCHED-NOT: register chain
// PTX-LABEL: .visible .entry flash_wide_kernel0(
// PTX: max.NaN.f32
// PTX: ex2.approx
// PTX: bar.sync
// PTX: mma.sync
func.func @flash_wide(%q: tensor<2x16x64xf16>, %k: tensor<2x64x1024xf16>, %v: tensor<2x1024x64xf16>) -> tensor<2x16x64xf16> {
  %o = mirage_kernel.graph_def(%Q = %q : tensor<2x16x64xf16>, %K = %k : tensor<2x64x1024xf16>, %V = %v : tensor<2x1024x64xf16>) -> tensor<2x16x64xf16> grid [2, 1, 1] block [256, 1, 1] forloop 16 {
    %qt = input_loader %Q imap <x = 0> : tensor<2x16x64xf16> -> !mirage_block.stensor<1x16x64xf16>
    %kt = input_loader %K imap <x = 0> fmap 2 : tensor<2x64x1024xf16> -> !mirage_block.stensor<1x64x64xf16>
    %vt = input_loader %V imap <x = 0> fmap 1 : tensor<2x1024x64xf16> -> !mirage_block.stensor<1x64x64xf16>
    %s = matmul %qt, %kt : !mirage_block.stensor<1x16x64xf16>, !mirage_block.stensor<1x64x64xf16> -> !mirage_block.stensor<1x16x64xf16>
    %t = mul_scalar %s by 0.125 : !mirage_block.stensor<1x16x64xf16>
    %r = reduction_max %t dim 2 : !mirage_block.stensor<1x16x64xf16> -> !mirage_block.stensor<1x16x1xf16>
    %m = forloop_accum %r max : !mirage_block.stensor<1x16x1xf16> -> !mirage_block.stensor<1x16x1xf16>
    %d = sub %t, %m : !mirage_block.stensor<1x16x64xf16>, !mirage_block.stensor<1x16x1xf16> -> !mirage_block.stensor<1x16x64xf16>
    %e = exp %d : !mirage_block.stensor<1x16x64xf16>
    %ev = matmul %e, %vt : !mirage_block.stensor<1x16x64xf16>, !mirage_block.stensor<1x64x64xf16> -> !mirage_block.stensor<1x16x64xf16>
    %acc = forloop_accum %ev sum : !mirage_block.stensor<1x16x64xf16> -> !mirage_block.stensor<1x16x64xf16>
    %l = forloop_accum %e sum_last : !mirage_block.stensor<1x16x64xf16> -> !mirage_block.stensor<1x16x1xf16>
    %y = div %acc, %l : !mirage_block.stensor<1x16x64xf16>, !mirage_block.stensor<1x16x1xf16> -> !mirage_block.stensor<1x16x64xf16>
    %ot = output_saver %y omap <x = 0> : !mirage_block.stensor<1x16x64xf16> -> tensor<2x16x64xf16>
    yield %ot : tensor<2x16x64xf16>
  }
  return %o : tensor<2x16x64xf16>
}

// -----

// Decode attention at 16 tokens (a group's 64 query rows): one strip per
// warp, so the warps need no slices, and no rescaling after the loop.
// SCHED-LABEL: kernel decode#0 on sm_90a
// SCHED: register chain #3 matmul -> #9 matmul row sums 1 registers [0, 68) running max #6 forloop_accum
// GPU-LABEL: gpu.func @decode_kernel0
// GPU: scf.yield
// GPU-NOT: math.exp2
// GPU: gpu.return
func.func @decode(%q: tensor<1x64x128xf16>, %k: tensor<1x128x1024xf16>, %v: tensor<1x1024x128xf16>) -> (tensor<1x64x512xf16>, tensor<1x64x4xf16>, tensor<1x64x4xf16>) {
  %o:3 = mirage_kernel.graph_def(%Q = %q : tensor<1x64x128xf16>, %K = %k : tensor<1x128x1024xf16>, %V = %v : tensor<1x1024x128xf16>) -> (tensor<1x64x512xf16>, tensor<1x64x4xf16>, tensor<1x64x4xf16>) grid [1, 4, 1] block [128, 1, 1] forloop 4 {
    %qt = input_loader %Q imap <x = 0> : tensor<1x64x128xf16> -> !mirage_block.stensor<1x64x128xf16>
    %kt = input_loader %K imap <x = 0, y = 2> fmap 2 : tensor<1x128x1024xf16> -> !mirage_block.stensor<1x128x64xf16>
    %vt = input_loader %V imap <x = 0, y = 1> fmap 1 : tensor<1x1024x128xf16> -> !mirage_block.stensor<1x64x128xf16>
    %s = matmul %qt, %kt : !mirage_block.stensor<1x64x128xf16>, !mirage_block.stensor<1x128x64xf16> -> !mirage_block.stensor<1x64x64xf16>
    %t = mul_scalar %s by 0.0883883461 : !mirage_block.stensor<1x64x64xf16>
    %r = reduction_max %t dim 2 : !mirage_block.stensor<1x64x64xf16> -> !mirage_block.stensor<1x64x1xf16>
    %m = forloop_accum %r max : !mirage_block.stensor<1x64x1xf16> -> !mirage_block.stensor<1x64x1xf16>
    %d = sub %t, %m : !mirage_block.stensor<1x64x64xf16>, !mirage_block.stensor<1x64x1xf16> -> !mirage_block.stensor<1x64x64xf16>
    %e = exp %d : !mirage_block.stensor<1x64x64xf16>
    %ev = matmul %e, %vt : !mirage_block.stensor<1x64x64xf16>, !mirage_block.stensor<1x64x128xf16> -> !mirage_block.stensor<1x64x128xf16>
    %acc = forloop_accum %ev sum : !mirage_block.stensor<1x64x128xf16> -> !mirage_block.stensor<1x64x128xf16>
    %l = forloop_accum %e sum_last : !mirage_block.stensor<1x64x64xf16> -> !mirage_block.stensor<1x64x1xf16>
    %ot = output_saver %acc omap <x = 0, y = 2> : !mirage_block.stensor<1x64x128xf16> -> tensor<1x64x512xf16>
    %lt = output_saver %l omap <x = 0, y = 2> : !mirage_block.stensor<1x64x1xf16> -> tensor<1x64x4xf16>
    %mt = output_saver %m omap <x = 0, y = 2> : !mirage_block.stensor<1x64x1xf16> -> tensor<1x64x4xf16>
    yield %ot, %lt, %mt : tensor<1x64x512xf16>, tensor<1x64x4xf16>, tensor<1x64x4xf16>
  }
  return %o#0, %o#1, %o#2 : tensor<1x64x512xf16>, tensor<1x64x4xf16>, tensor<1x64x4xf16>
}

// -----

// One-token decode (a GQA group's 4 query rows): a strip of fewer than 16
// rows, whose rows past the end are computed from the last row's queries
// and dropped: their row sums and maxima are not stored, and their factors
// after the loop read the last row's maximum. The 4 warps split the keys.
// SCHED-LABEL: kernel one_token#0 on sm_90a
// SCHED: register chain #3 matmul -> #9 matmul row sums 1 registers [0, 68) running max #6 forloop_accum
// GPU-LABEL: gpu.func @one_token_kernel0
// GPU: scf.yield
// GPU: arith.cmpi ult, %{{.*}}, %c4
// GPU-NEXT: scf.if
// GPU: arith.minui %{{.*}}, %c3
// GPU: gpu.return
func.func @one_token(%q: tensor<1x4x128xf16>, %k: tensor<1x128x1024xf16>, %v: tensor<1x1024x128xf16>) -> (tensor<1x4x512xf16>, tensor<1x4x4xf16>, tensor<1x4x4xf16>) {
  %o:3 = mirage_kernel.graph_def(%Q = %q : tensor<1x4x128xf16>, %K = %k : tensor<1x128x1024xf16>, %V = %v : tensor<1x1024x128xf16>) -> (tensor<1x4x512xf16>, tensor<1x4x4xf16>, tensor<1x4x4xf16>) grid [1, 4, 1] block [128, 1, 1] forloop 4 {
    %qt = input_loader %Q imap <x = 0> : tensor<1x4x128xf16> -> !mirage_block.stensor<1x4x128xf16>
    %kt = input_loader %K imap <x = 0, y = 2> fmap 2 : tensor<1x128x1024xf16> -> !mirage_block.stensor<1x128x64xf16>
    %vt = input_loader %V imap <x = 0, y = 1> fmap 1 : tensor<1x1024x128xf16> -> !mirage_block.stensor<1x64x128xf16>
    %s = matmul %qt, %kt : !mirage_block.stensor<1x4x128xf16>, !mirage_block.stensor<1x128x64xf16> -> !mirage_block.stensor<1x4x64xf16>
    %t = mul_scalar %s by 0.0883883461 : !mirage_block.stensor<1x4x64xf16>
    %r = reduction_max %t dim 2 : !mirage_block.stensor<1x4x64xf16> -> !mirage_block.stensor<1x4x1xf16>
    %m = forloop_accum %r max : !mirage_block.stensor<1x4x1xf16> -> !mirage_block.stensor<1x4x1xf16>
    %d = sub %t, %m : !mirage_block.stensor<1x4x64xf16>, !mirage_block.stensor<1x4x1xf16> -> !mirage_block.stensor<1x4x64xf16>
    %e = exp %d : !mirage_block.stensor<1x4x64xf16>
    %ev = matmul %e, %vt : !mirage_block.stensor<1x4x64xf16>, !mirage_block.stensor<1x64x128xf16> -> !mirage_block.stensor<1x4x128xf16>
    %acc = forloop_accum %ev sum : !mirage_block.stensor<1x4x128xf16> -> !mirage_block.stensor<1x4x128xf16>
    %l = forloop_accum %e sum_last : !mirage_block.stensor<1x4x64xf16> -> !mirage_block.stensor<1x4x1xf16>
    %ot = output_saver %acc omap <x = 0, y = 2> : !mirage_block.stensor<1x4x128xf16> -> tensor<1x4x512xf16>
    %lt = output_saver %l omap <x = 0, y = 2> : !mirage_block.stensor<1x4x1xf16> -> tensor<1x4x4xf16>
    %mt = output_saver %m omap <x = 0, y = 2> : !mirage_block.stensor<1x4x1xf16> -> tensor<1x4x4xf16>
    yield %ot, %lt, %mt : tensor<1x4x512xf16>, tensor<1x4x4xf16>, tensor<1x4x4xf16>
  }
  return %o#0, %o#1, %o#2 : tensor<1x4x512xf16>, tensor<1x4x4xf16>, tensor<1x4x4xf16>
}

// -----

// A whole strip (16 query rows) whose keys the 4 warps split: after the
// loop each row's factor reads its own maximum, with no clamp of the row
// (the clamp is for the rows past the end of a partial strip).
// SCHED-LABEL: kernel whole_strip#0 on sm_90a
// SCHED: register chain #3 matmul -> #9 matmul row sums 1 registers [0, 68) running max #6 forloop_accum
// GPU-LABEL: gpu.func @whole_strip_kernel0
// GPU-NOT: arith.minui
// GPU: gpu.return
func.func @whole_strip(%q: tensor<1x16x128xf16>, %k: tensor<1x128x1024xf16>, %v: tensor<1x1024x128xf16>) -> (tensor<1x16x512xf16>, tensor<1x16x4xf16>, tensor<1x16x4xf16>) {
  %o:3 = mirage_kernel.graph_def(%Q = %q : tensor<1x16x128xf16>, %K = %k : tensor<1x128x1024xf16>, %V = %v : tensor<1x1024x128xf16>) -> (tensor<1x16x512xf16>, tensor<1x16x4xf16>, tensor<1x16x4xf16>) grid [1, 4, 1] block [128, 1, 1] forloop 4 {
    %qt = input_loader %Q imap <x = 0> : tensor<1x16x128xf16> -> !mirage_block.stensor<1x16x128xf16>
    %kt = input_loader %K imap <x = 0, y = 2> fmap 2 : tensor<1x128x1024xf16> -> !mirage_block.stensor<1x128x64xf16>
    %vt = input_loader %V imap <x = 0, y = 1> fmap 1 : tensor<1x1024x128xf16> -> !mirage_block.stensor<1x64x128xf16>
    %s = matmul %qt, %kt : !mirage_block.stensor<1x16x128xf16>, !mirage_block.stensor<1x128x64xf16> -> !mirage_block.stensor<1x16x64xf16>
    %t = mul_scalar %s by 0.0883883461 : !mirage_block.stensor<1x16x64xf16>
    %r = reduction_max %t dim 2 : !mirage_block.stensor<1x16x64xf16> -> !mirage_block.stensor<1x16x1xf16>
    %m = forloop_accum %r max : !mirage_block.stensor<1x16x1xf16> -> !mirage_block.stensor<1x16x1xf16>
    %d = sub %t, %m : !mirage_block.stensor<1x16x64xf16>, !mirage_block.stensor<1x16x1xf16> -> !mirage_block.stensor<1x16x64xf16>
    %e = exp %d : !mirage_block.stensor<1x16x64xf16>
    %ev = matmul %e, %vt : !mirage_block.stensor<1x16x64xf16>, !mirage_block.stensor<1x64x128xf16> -> !mirage_block.stensor<1x16x128xf16>
    %acc = forloop_accum %ev sum : !mirage_block.stensor<1x16x128xf16> -> !mirage_block.stensor<1x16x128xf16>
    %l = forloop_accum %e sum_last : !mirage_block.stensor<1x16x64xf16> -> !mirage_block.stensor<1x16x1xf16>
    %ot = output_saver %acc omap <x = 0, y = 2> : !mirage_block.stensor<1x16x128xf16> -> tensor<1x16x512xf16>
    %lt = output_saver %l omap <x = 0, y = 2> : !mirage_block.stensor<1x16x1xf16> -> tensor<1x16x4xf16>
    %mt = output_saver %m omap <x = 0, y = 2> : !mirage_block.stensor<1x16x1xf16> -> tensor<1x16x4xf16>
    yield %ot, %lt, %mt : tensor<1x16x512xf16>, tensor<1x16x4xf16>, tensor<1x16x4xf16>
  }
  return %o#0, %o#1, %o#2 : tensor<1x16x512xf16>, tensor<1x16x4xf16>, tensor<1x16x4xf16>
}

// -----

// Scores that another op also reads (here their row sums, summed over the
// loop) are not held by the chain alone: the shared form.
// SCHED-LABEL: kernel scores_read_twice#0 on sm_90a
// SCHED: register sum #10 forloop_accum mma.sync
// SCHED-NOT: register chain
func.func @scores_read_twice(%q: tensor<1x16x64xf16>, %k: tensor<1x64x1024xf16>, %v: tensor<1x1024x64xf16>) -> (tensor<1x16x64xf16>, tensor<1x16x1xf16>) {
  %o:2 = mirage_kernel.graph_def(%Q = %q : tensor<1x16x64xf16>, %K = %k : tensor<1x64x1024xf16>, %V = %v : tensor<1x1024x64xf16>) -> (tensor<1x16x64xf16>, tensor<1x16x1xf16>) grid [1, 1, 1] block [128, 1, 1] forloop 16 {
    %qt = input_loader %Q imap <x = 0> : tensor<1x16x64xf16> -> !mirage_block.stensor<1x16x64xf16>
    %kt = input_loader %K imap <x = 0> fmap 2 : tensor<1x64x1024xf16> -> !mirage_block.stensor<1x64x64xf16>
    %vt = input_loader %V imap <x = 0> fmap 1 : tensor<1x1024x64xf16> -> !mirage_block.stensor<1x64x64xf16>
    %s = matmul %qt, %kt : !mirage_block.stensor<1x16x64xf16>, !mirage_block.stensor<1x64x64xf16> -> !mirage_block.stensor<1x16x64xf16>
    %t = mul_scalar %s by 0.125 : !mirage_block.stensor<1x16x64xf16>
    %r = reduction_max %t dim 2 : !mirage_block.stensor<1x16x64xf16> -> !mirage_block.stensor<1x16x1xf16>
    %m = forloop_accum %r max : !mirage_block.stensor<1x16x1xf16> -> !mirage_block.stensor<1x16x1xf16>
    %d = sub %t, %m : !mirage_block.stensor<1x16x64xf16>, !mirage_block.stensor<1x16x1xf16> -> !mirage_block.stensor<1x16x64xf16>
    %e = exp %d : !mirage_block.stensor<1x16x64xf16>
    %ev = matmul %e, %vt : !mirage_block.stensor<1x16x64xf16>, !mirage_block.stensor<1x64x64xf16> -> !mirage_block.stensor<1x16x64xf16>
    %acc = forloop_accum %ev sum : !mirage_block.stensor<1x16x64xf16> -> !mirage_block.stensor<1x16x64xf16>
    %l = forloop_accum %e sum_last : !mirage_block.stensor<1x16x64xf16> -> !mirage_block.stensor<1x16x1xf16>
    %ts = forloop_accum %t sum_last : !mirage_block.stensor<1x16x64xf16> -> !mirage_block.stensor<1x16x1xf16>
    %y = div %acc, %l : !mirage_block.stensor<1x16x64xf16>, !mirage_block.stensor<1x16x1xf16> -> !mirage_block.stensor<1x16x64xf16>
    %ot = output_saver %y omap <> : !mirage_block.stensor<1x16x64xf16> -> tensor<1x16x64xf16>
    %tt = output_saver %ts omap <> : !mirage_block.stensor<1x16x1xf16> -> tensor<1x16x1xf16>
    yield %ot, %tt : tensor<1x16x64xf16>, tensor<1x16x1xf16>
  }
  return %o#0, %o#1 : tensor<1x16x64xf16>, tensor<1x16x1xf16>
}
