// mirage-test-reachable on split µGraphs whose combining kernel also reads
// an input of the rest after Q·K: the first kernel saves only the
// numerators' parts, the combining kernel takes the rows' sums of exp(S)
// itself (the public implementation's MHA forms 17 to 20), or reads exp(S)
// computed at kernel level between the kernels (its forms 15 and 16; built
// for an observer only, as its fused twin dominates it).
// RUN: mirage-opt %s --mirage-test-reachable='reference=attention time-limit=30' -verify-diagnostics -o /dev/null
// The candidates compute the reference:
// RUN: mirage-opt %s --mirage-check-equivalence=reference=attention -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQUIV
// EQUIV-COUNT-2: remark: is equivalent to @attention

func.func @attention(%Q: tensor<2x32x16xf16>, %K: tensor<2x16x256xf16>, %V: tensor<2x256x16xf16>) -> tensor<2x32x16xf16> {
  %S = mirage_kernel.matmul %Q, %K : tensor<2x32x16xf16>, tensor<2x16x256xf16> -> tensor<2x32x256xf16>
  %E = mirage_kernel.exp %S : tensor<2x32x256xf16>
  %N = mirage_kernel.matmul %E, %V : tensor<2x32x256xf16>, tensor<2x256x16xf16> -> tensor<2x32x16xf16>
  %R = mirage_kernel.reduction %E dim 2 : tensor<2x32x256xf16> -> tensor<2x32x1xf16>
  %O = mirage_kernel.div %N, %R : tensor<2x32x16xf16>, tensor<2x32x1xf16> -> tensor<2x32x16xf16>
  return %O : tensor<2x32x16xf16>
}

// expected-remark-re @below {{{{^}}reachable{{$}}}}
func.func @reads_scores(%Q: tensor<2x32x16xf16>, %K: tensor<2x16x256xf16>, %V: tensor<2x256x16xf16>) -> tensor<2x32x16xf16> {
  %S = mirage_kernel.matmul %Q, %K : tensor<2x32x16xf16>, tensor<2x16x256xf16> -> tensor<2x32x256xf16>
  %p = mirage_kernel.graph_def(%v = %V : tensor<2x256x16xf16>, %s = %S : tensor<2x32x256xf16>) -> tensor<2x32x32xf16> grid [2, 2, 1] block [128, 1, 1] forloop 2 {
    %vt = input_loader %v imap <x = 0, y = 1> fmap 1 : tensor<2x256x16xf16> -> !mirage_block.stensor<1x64x16xf16>
    %st = input_loader %s imap <x = 0, y = 2> fmap 2 : tensor<2x32x256xf16> -> !mirage_block.stensor<1x32x64xf16>
    %e = exp %st : !mirage_block.stensor<1x32x64xf16>
    %ev = matmul %e, %vt : !mirage_block.stensor<1x32x64xf16>, !mirage_block.stensor<1x64x16xf16> -> !mirage_block.stensor<1x32x16xf16>
    %num = forloop_accum %ev sum : !mirage_block.stensor<1x32x16xf16> -> !mirage_block.stensor<1x32x16xf16>
    %out = output_saver %num omap <x = 0, y = 2> : !mirage_block.stensor<1x32x16xf16> -> tensor<2x32x32xf16>
    yield %out : tensor<2x32x32xf16>
  }
  %o = mirage_kernel.graph_def(%s = %S : tensor<2x32x256xf16>, %n = %p : tensor<2x32x32xf16>) -> tensor<2x32x16xf16> grid [2, 4, 1] block [128, 1, 1] forloop 1 {
    %st = input_loader %s imap <x = 0, y = 1> : tensor<2x32x256xf16> -> !mirage_block.stensor<1x8x256xf16>
    %nt = input_loader %n imap <x = 0, y = 1> : tensor<2x32x32xf16> -> !mirage_block.stensor<1x8x32xf16>
    %e = exp %st : !mirage_block.stensor<1x8x256xf16>
    %num = forloop_accum %nt sum_last_to 16 : !mirage_block.stensor<1x8x32xf16> -> !mirage_block.stensor<1x8x16xf16>
    %den = forloop_accum %e sum_last : !mirage_block.stensor<1x8x256xf16> -> !mirage_block.stensor<1x8x1xf16>
    %r = div %num, %den : !mirage_block.stensor<1x8x16xf16>, !mirage_block.stensor<1x8x1xf16> -> !mirage_block.stensor<1x8x16xf16>
    %out = output_saver %r omap <x = 0, y = 1> : !mirage_block.stensor<1x8x16xf16> -> tensor<2x32x16xf16>
    yield %out : tensor<2x32x16xf16>
  }
  return %o : tensor<2x32x16xf16>
}

// expected-remark-re @below {{{{^}}reachable{{$}}}}
func.func @exp_between(%Q: tensor<2x32x16xf16>, %K: tensor<2x16x256xf16>, %V: tensor<2x256x16xf16>) -> tensor<2x32x16xf16> {
  %S = mirage_kernel.matmul %Q, %K : tensor<2x32x16xf16>, tensor<2x16x256xf16> -> tensor<2x32x256xf16>
  %p = mirage_kernel.graph_def(%v = %V : tensor<2x256x16xf16>, %s = %S : tensor<2x32x256xf16>) -> tensor<2x32x32xf16> grid [2, 2, 1] block [128, 1, 1] forloop 2 {
    %vt = input_loader %v imap <x = 0, y = 1> fmap 1 : tensor<2x256x16xf16> -> !mirage_block.stensor<1x64x16xf16>
    %st = input_loader %s imap <x = 0, y = 2> fmap 2 : tensor<2x32x256xf16> -> !mirage_block.stensor<1x32x64xf16>
    %e = exp %st : !mirage_block.stensor<1x32x64xf16>
    %ev = matmul %e, %vt : !mirage_block.stensor<1x32x64xf16>, !mirage_block.stensor<1x64x16xf16> -> !mirage_block.stensor<1x32x16xf16>
    %num = forloop_accum %ev sum : !mirage_block.stensor<1x32x16xf16> -> !mirage_block.stensor<1x32x16xf16>
    %out = output_saver %num omap <x = 0, y = 2> : !mirage_block.stensor<1x32x16xf16> -> tensor<2x32x32xf16>
    yield %out : tensor<2x32x32xf16>
  }
  %E = mirage_kernel.exp %S : tensor<2x32x256xf16>
  %o = mirage_kernel.graph_def(%n = %p : tensor<2x32x32xf16>, %e = %E : tensor<2x32x256xf16>) -> tensor<2x32x16xf16> grid [2, 4, 1] block [128, 1, 1] forloop 1 {
    %nt = input_loader %n imap <x = 0, y = 1> : tensor<2x32x32xf16> -> !mirage_block.stensor<1x8x32xf16>
    %et = input_loader %e imap <x = 0, y = 1> : tensor<2x32x256xf16> -> !mirage_block.stensor<1x8x256xf16>
    %num = forloop_accum %nt sum_last_to 16 : !mirage_block.stensor<1x8x32xf16> -> !mirage_block.stensor<1x8x16xf16>
    %den = forloop_accum %et sum_last : !mirage_block.stensor<1x8x256xf16> -> !mirage_block.stensor<1x8x1xf16>
    %r = div %num, %den : !mirage_block.stensor<1x8x16xf16>, !mirage_block.stensor<1x8x1xf16> -> !mirage_block.stensor<1x8x16xf16>
    %out = output_saver %r omap <x = 0, y = 1> : !mirage_block.stensor<1x8x16xf16> -> tensor<2x32x16xf16>
    yield %out : tensor<2x32x16xf16>
  }
  return %o : tensor<2x32x16xf16>
}
