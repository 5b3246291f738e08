// mirage-test-reachable on µGraphs that keep a leading op of the reference
// at kernel level (a library GEMM) before their graph_defs: the rest is
// checked against the reference cut after that op.
// RUN: mirage-opt %s --mirage-test-reachable='reference=attention time-limit=20' -verify-diagnostics -o /dev/null
// The candidates compute the reference:
// RUN: mirage-opt %s --mirage-check-equivalence=reference=attention -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQUIV
// EQUIV-COUNT-2: remark: is equivalent to @attention

func.func @attention(%Q: tensor<2x32x16xf16>, %K: tensor<2x16x256xf16>, %V: tensor<2x256x16xf16>) -> tensor<2x32x16xf16> {
  %S = mirage_kernel.matmul %Q, %K : tensor<2x32x16xf16>, tensor<2x16x256xf16> -> tensor<2x32x256xf16>
  %E = mirage_kernel.exp %S : tensor<2x32x256xf16>
  %R = mirage_kernel.reduction %E dim 2 : tensor<2x32x256xf16> -> tensor<2x32x1xf16>
  %P = mirage_kernel.div %E, %R : tensor<2x32x256xf16>, tensor<2x32x1xf16> -> tensor<2x32x256xf16>
  %O = mirage_kernel.matmul %P, %V : tensor<2x32x256xf16>, tensor<2x256x16xf16> -> tensor<2x32x16xf16>
  return %O : tensor<2x32x16xf16>
}

// Q·K as a library GEMM, then one kernel over the scores and V: heads on
// x, 16-row tiles on y, the keys in four steps.
// expected-remark-re @below {{{{^}}reachable{{$}}}}
func.func @scores_first(%Q: tensor<2x32x16xf16>, %K: tensor<2x16x256xf16>, %V: tensor<2x256x16xf16>) -> tensor<2x32x16xf16> {
  %S = mirage_kernel.matmul %Q, %K : tensor<2x32x16xf16>, tensor<2x16x256xf16> -> tensor<2x32x256xf16>
  %o = mirage_kernel.graph_def(%s = %S : tensor<2x32x256xf16>, %v = %V : tensor<2x256x16xf16>) -> tensor<2x32x16xf16> grid [2, 2, 1] block [128, 1, 1] forloop 4 {
    %st = input_loader %s imap <x = 0, y = 1> fmap 2 : tensor<2x32x256xf16> -> !mirage_block.stensor<1x16x64xf16>
    %vt = input_loader %v imap <x = 0> fmap 1 : tensor<2x256x16xf16> -> !mirage_block.stensor<1x64x16xf16>
    %e = exp %st : !mirage_block.stensor<1x16x64xf16>
    %den = forloop_accum %e sum_last : !mirage_block.stensor<1x16x64xf16> -> !mirage_block.stensor<1x16x1xf16>
    %ev = matmul %e, %vt : !mirage_block.stensor<1x16x64xf16>, !mirage_block.stensor<1x64x16xf16> -> !mirage_block.stensor<1x16x16xf16>
    %num = forloop_accum %ev sum : !mirage_block.stensor<1x16x16xf16> -> !mirage_block.stensor<1x16x16xf16>
    %r = div %num, %den : !mirage_block.stensor<1x16x16xf16>, !mirage_block.stensor<1x16x1xf16> -> !mirage_block.stensor<1x16x16xf16>
    %out = output_saver %r omap <x = 0, y = 1> : !mirage_block.stensor<1x16x16xf16> -> tensor<2x32x16xf16>
    yield %out : tensor<2x32x16xf16>
  }
  return %o : tensor<2x32x16xf16>
}

// A kernel graph that ends in a kernel-level division of the graph_def's
// two results: not a leading op, but the fused kernel's final division
// hoisted to kernel level, which the search builds too.
// expected-remark-re @below {{{{^}}reachable{{$}}}}
func.func @divides_last(%Q: tensor<2x32x16xf16>, %K: tensor<2x16x256xf16>, %V: tensor<2x256x16xf16>) -> tensor<2x32x16xf16> {
  %parts:2 = mirage_kernel.graph_def(%q = %Q : tensor<2x32x16xf16>, %k = %K : tensor<2x16x256xf16>, %v = %V : tensor<2x256x16xf16>) -> (tensor<2x32x1xf16>, tensor<2x32x16xf16>) grid [2, 2, 1] block [128, 1, 1] forloop 4 {
    %qt = input_loader %q imap <x = 0, y = 1> : tensor<2x32x16xf16> -> !mirage_block.stensor<1x16x16xf16>
    %kt = input_loader %k imap <x = 0> fmap 2 : tensor<2x16x256xf16> -> !mirage_block.stensor<1x16x64xf16>
    %vt = input_loader %v imap <x = 0> fmap 1 : tensor<2x256x16xf16> -> !mirage_block.stensor<1x64x16xf16>
    %s = matmul %qt, %kt : !mirage_block.stensor<1x16x16xf16>, !mirage_block.stensor<1x16x64xf16> -> !mirage_block.stensor<1x16x64xf16>
    %e = exp %s : !mirage_block.stensor<1x16x64xf16>
    %den = forloop_accum %e sum_last : !mirage_block.stensor<1x16x64xf16> -> !mirage_block.stensor<1x16x1xf16>
    %ev = matmul %e, %vt : !mirage_block.stensor<1x16x64xf16>, !mirage_block.stensor<1x64x16xf16> -> !mirage_block.stensor<1x16x16xf16>
    %num = forloop_accum %ev sum : !mirage_block.stensor<1x16x16xf16> -> !mirage_block.stensor<1x16x16xf16>
    %od = output_saver %den omap <x = 0, y = 1> : !mirage_block.stensor<1x16x1xf16> -> tensor<2x32x1xf16>
    %on = output_saver %num omap <x = 0, y = 1> : !mirage_block.stensor<1x16x16xf16> -> tensor<2x32x16xf16>
    yield %od, %on : tensor<2x32x1xf16>, tensor<2x32x16xf16>
  }
  %o = mirage_kernel.div %parts#1, %parts#0 : tensor<2x32x16xf16>, tensor<2x32x1xf16> -> tensor<2x32x16xf16>
  return %o : tensor<2x32x16xf16>
}
