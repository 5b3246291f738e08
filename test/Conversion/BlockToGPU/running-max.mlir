// RUN: mirage-opt %s --split-input-file --mirage-test-kernel-schedule=chip=sm_90a -o /dev/null | FileCheck %s --check-prefix=SCHED
// RUN: mirage-opt %s --split-input-file --mirage-to-ptx-pipeline=chip=sm_90a | FileCheck %s --check-prefix=PTX
// RUN: mirage-translate --mirage-to-triton %s | FileCheck %s --check-prefix=TRITON

// A running maximum (online softmax, FlashAttention's form): the generated
// kernel keeps the maximum so far in its f32 tile and, at each step, stores
// the factors exp(old - new) beside it and multiplies the sums the shift
// reaches by them, row by row: the product's mma.sync registers (the
// fragment rows g and g + 8 of each tile) and the row sums' shared tile.
// SCHED-LABEL: kernel flash#0 on sm_90a
// SCHED: register sum #10 forloop_accum mma.sync
// SCHED: running max #6 forloop_accum rescales #10 forloop_accum #11 forloop_accum
// PTX-LABEL: .visible .entry flash_kernel0(
// PTX: max.NaN.f32
// PTX: ex2.approx
// PTX: bar.sync
// PTX: mma.sync
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
