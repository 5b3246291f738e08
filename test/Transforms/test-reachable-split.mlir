// mirage-test-reachable on split µGraphs (split-KV attention): the
// combining kernel's launch is a schedule the search derives, the order of
// the partial results a renaming, and a grid axis of one block maps
// nothing; none of them makes a candidate unreachable.
// RUN: mirage-opt %s --mirage-test-reachable='reference=attention time-limit=20' -verify-diagnostics -o /dev/null
// The candidates compute the reference:
// RUN: mirage-opt %s --mirage-check-equivalence=reference=attention -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQUIV
// EQUIV-COUNT-3: remark: is equivalent to @attention

func.func @attention(%Q: tensor<2x32x16xf16>, %K: tensor<2x16x256xf16>, %V: tensor<2x256x16xf16>) -> tensor<2x32x16xf16> {
  %S = mirage_kernel.matmul %Q, %K : tensor<2x32x16xf16>, tensor<2x16x256xf16> -> tensor<2x32x256xf16>
  %E = mirage_kernel.exp %S : tensor<2x32x256xf16>
  %R = mirage_kernel.reduction %E dim 2 : tensor<2x32x256xf16> -> tensor<2x32x1xf16>
  %P = mirage_kernel.div %E, %R : tensor<2x32x256xf16>, tensor<2x32x1xf16> -> tensor<2x32x256xf16>
  %O = mirage_kernel.matmul %P, %V : tensor<2x32x256xf16>, tensor<2x256x16xf16> -> tensor<2x32x16xf16>
  return %O : tensor<2x32x16xf16>
}

// Heads on x, four KV slices on y, two row tiles on z; the denominators
// saved before the numerators, and combined by 4 blocks of 8 rows with
// for-loop accumulators (the search's combining kernel uses 32 blocks and
// strided reductions).
// expected-remark-re @below {{{{^}}reachable{{$}}}}
func.func @denominators_first(%Q: tensor<2x32x16xf16>, %K: tensor<2x16x256xf16>, %V: tensor<2x256x16xf16>) -> tensor<2x32x16xf16> {
  %parts:2 = mirage_kernel.graph_def(%q = %Q : tensor<2x32x16xf16>, %k = %K : tensor<2x16x256xf16>, %v = %V : tensor<2x256x16xf16>) -> (tensor<2x32x4xf16>, tensor<2x32x64xf16>) grid [2, 4, 2] block [128, 1, 1] forloop 2 {
    %qt = input_loader %q imap <x = 0, z = 1> : tensor<2x32x16xf16> -> !mirage_block.stensor<1x16x16xf16>
    %kt = input_loader %k imap <x = 0, y = 2> fmap 2 : tensor<2x16x256xf16> -> !mirage_block.stensor<1x16x32xf16>
    %vt = input_loader %v imap <x = 0, y = 1> fmap 1 : tensor<2x256x16xf16> -> !mirage_block.stensor<1x32x16xf16>
    %s = matmul %qt, %kt : !mirage_block.stensor<1x16x16xf16>, !mirage_block.stensor<1x16x32xf16> -> !mirage_block.stensor<1x16x32xf16>
    %e = exp %s : !mirage_block.stensor<1x16x32xf16>
    %den = forloop_accum %e sum_last : !mirage_block.stensor<1x16x32xf16> -> !mirage_block.stensor<1x16x1xf16>
    %ev = matmul %e, %vt : !mirage_block.stensor<1x16x32xf16>, !mirage_block.stensor<1x32x16xf16> -> !mirage_block.stensor<1x16x16xf16>
    %num = forloop_accum %ev sum : !mirage_block.stensor<1x16x16xf16> -> !mirage_block.stensor<1x16x16xf16>
    %od = output_saver %den omap <x = 0, y = 2, z = 1> : !mirage_block.stensor<1x16x1xf16> -> tensor<2x32x4xf16>
    %on = output_saver %num omap <x = 0, y = 2, z = 1> : !mirage_block.stensor<1x16x16xf16> -> tensor<2x32x64xf16>
    yield %od, %on : tensor<2x32x4xf16>, tensor<2x32x64xf16>
  }
  %o = mirage_kernel.graph_def(%d = %parts#0 : tensor<2x32x4xf16>, %n = %parts#1 : tensor<2x32x64xf16>) -> tensor<2x32x16xf16> grid [2, 4, 1] block [128, 1, 1] forloop 1 {
    %dt = input_loader %d imap <x = 0, y = 1> : tensor<2x32x4xf16> -> !mirage_block.stensor<1x8x4xf16>
    %nt = input_loader %n imap <x = 0, y = 1> : tensor<2x32x64xf16> -> !mirage_block.stensor<1x8x64xf16>
    %ds = forloop_accum %dt sum_last : !mirage_block.stensor<1x8x4xf16> -> !mirage_block.stensor<1x8x1xf16>
    %ns = forloop_accum %nt sum_last_to 16 : !mirage_block.stensor<1x8x64xf16> -> !mirage_block.stensor<1x8x16xf16>
    %r = div %ns, %ds : !mirage_block.stensor<1x8x16xf16>, !mirage_block.stensor<1x8x1xf16> -> !mirage_block.stensor<1x8x16xf16>
    %out = output_saver %r omap <x = 0, y = 1> : !mirage_block.stensor<1x8x16xf16> -> tensor<2x32x16xf16>
    yield %out : tensor<2x32x16xf16>
  }
  return %o : tensor<2x32x16xf16>
}

// The first kernel accumulates the exp tiles whole (32 columns per slice)
// rather than their row sums; the combining kernel sums each row of them.
// expected-remark-re @below {{{{^}}reachable{{$}}}}
func.func @tile_sums(%Q: tensor<2x32x16xf16>, %K: tensor<2x16x256xf16>, %V: tensor<2x256x16xf16>) -> tensor<2x32x16xf16> {
  %parts:2 = mirage_kernel.graph_def(%q = %Q : tensor<2x32x16xf16>, %k = %K : tensor<2x16x256xf16>, %v = %V : tensor<2x256x16xf16>) -> (tensor<2x32x64xf16>, tensor<2x32x128xf16>) grid [2, 4, 2] block [128, 1, 1] forloop 2 {
    %qt = input_loader %q imap <x = 0, z = 1> : tensor<2x32x16xf16> -> !mirage_block.stensor<1x16x16xf16>
    %kt = input_loader %k imap <x = 0, y = 2> fmap 2 : tensor<2x16x256xf16> -> !mirage_block.stensor<1x16x32xf16>
    %vt = input_loader %v imap <x = 0, y = 1> fmap 1 : tensor<2x256x16xf16> -> !mirage_block.stensor<1x32x16xf16>
    %s = matmul %qt, %kt : !mirage_block.stensor<1x16x16xf16>, !mirage_block.stensor<1x16x32xf16> -> !mirage_block.stensor<1x16x32xf16>
    %e = exp %s : !mirage_block.stensor<1x16x32xf16>
    %ev = matmul %e, %vt : !mirage_block.stensor<1x16x32xf16>, !mirage_block.stensor<1x32x16xf16> -> !mirage_block.stensor<1x16x16xf16>
    %num = forloop_accum %ev sum : !mirage_block.stensor<1x16x16xf16> -> !mirage_block.stensor<1x16x16xf16>
    %es = forloop_accum %e sum : !mirage_block.stensor<1x16x32xf16> -> !mirage_block.stensor<1x16x32xf16>
    %on = output_saver %num omap <x = 0, y = 2, z = 1> : !mirage_block.stensor<1x16x16xf16> -> tensor<2x32x64xf16>
    %oe = output_saver %es omap <x = 0, y = 2, z = 1> : !mirage_block.stensor<1x16x32xf16> -> tensor<2x32x128xf16>
    yield %on, %oe : tensor<2x32x64xf16>, tensor<2x32x128xf16>
  }
  %o = mirage_kernel.graph_def(%n = %parts#0 : tensor<2x32x64xf16>, %d = %parts#1 : tensor<2x32x128xf16>) -> tensor<2x32x16xf16> grid [2, 32, 1] block [128, 1, 1] forloop 1 {
    %nt = input_loader %n imap <x = 0, y = 1> : tensor<2x32x64xf16> -> !mirage_block.stensor<1x1x64xf16>
    %dt = input_loader %d imap <x = 0, y = 1> : tensor<2x32x128xf16> -> !mirage_block.stensor<1x1x128xf16>
    %ns = reduction %nt dim 2 size 16 : !mirage_block.stensor<1x1x64xf16> -> !mirage_block.stensor<1x1x16xf16>
    %ds = reduction %dt dim 2 : !mirage_block.stensor<1x1x128xf16> -> !mirage_block.stensor<1x1x1xf16>
    %r = div %ns, %ds : !mirage_block.stensor<1x1x16xf16>, !mirage_block.stensor<1x1x1xf16> -> !mirage_block.stensor<1x1x16xf16>
    %out = output_saver %r omap <x = 0, y = 1> : !mirage_block.stensor<1x1x16xf16> -> tensor<2x32x16xf16>
    yield %out : tensor<2x32x16xf16>
  }
  return %o : tensor<2x32x16xf16>
}

// The first kernel as @tile_sums; the combining kernel walks the parts'
// columns in four chunks, one slice's each: a `sum` accumulator of the
// numerators' chunks is their strided reduction to one slice's width, and
// `sum_last` of the denominators' chunks their whole-row sum (the public
// implementation's saved MHA bs8 forms 22 to 31).
// expected-remark-re @below {{{{^}}reachable{{$}}}}
func.func @looped_combiner(%Q: tensor<2x32x16xf16>, %K: tensor<2x16x256xf16>, %V: tensor<2x256x16xf16>) -> tensor<2x32x16xf16> {
  %parts:2 = mirage_kernel.graph_def(%q = %Q : tensor<2x32x16xf16>, %k = %K : tensor<2x16x256xf16>, %v = %V : tensor<2x256x16xf16>) -> (tensor<2x32x64xf16>, tensor<2x32x128xf16>) grid [2, 4, 2] block [128, 1, 1] forloop 2 {
    %qt = input_loader %q imap <x = 0, z = 1> : tensor<2x32x16xf16> -> !mirage_block.stensor<1x16x16xf16>
    %kt = input_loader %k imap <x = 0, y = 2> fmap 2 : tensor<2x16x256xf16> -> !mirage_block.stensor<1x16x32xf16>
    %vt = input_loader %v imap <x = 0, y = 1> fmap 1 : tensor<2x256x16xf16> -> !mirage_block.stensor<1x32x16xf16>
    %s = matmul %qt, %kt : !mirage_block.stensor<1x16x16xf16>, !mirage_block.stensor<1x16x32xf16> -> !mirage_block.stensor<1x16x32xf16>
    %e = exp %s : !mirage_block.stensor<1x16x32xf16>
    %ev = matmul %e, %vt : !mirage_block.stensor<1x16x32xf16>, !mirage_block.stensor<1x32x16xf16> -> !mirage_block.stensor<1x16x16xf16>
    %num = forloop_accum %ev sum : !mirage_block.stensor<1x16x16xf16> -> !mirage_block.stensor<1x16x16xf16>
    %es = forloop_accum %e sum : !mirage_block.stensor<1x16x32xf16> -> !mirage_block.stensor<1x16x32xf16>
    %on = output_saver %num omap <x = 0, y = 2, z = 1> : !mirage_block.stensor<1x16x16xf16> -> tensor<2x32x64xf16>
    %oe = output_saver %es omap <x = 0, y = 2, z = 1> : !mirage_block.stensor<1x16x32xf16> -> tensor<2x32x128xf16>
    yield %on, %oe : tensor<2x32x64xf16>, tensor<2x32x128xf16>
  }
  %o = mirage_kernel.graph_def(%n = %parts#0 : tensor<2x32x64xf16>, %d = %parts#1 : tensor<2x32x128xf16>) -> tensor<2x32x16xf16> grid [2, 8, 1] block [128, 1, 1] forloop 4 {
    %nt = input_loader %n imap <x = 0, y = 1> fmap 2 : tensor<2x32x64xf16> -> !mirage_block.stensor<1x4x16xf16>
    %dt = input_loader %d imap <x = 0, y = 1> fmap 2 : tensor<2x32x128xf16> -> !mirage_block.stensor<1x4x32xf16>
    %ns = forloop_accum %nt sum : !mirage_block.stensor<1x4x16xf16> -> !mirage_block.stensor<1x4x16xf16>
    %ds = forloop_accum %dt sum_last : !mirage_block.stensor<1x4x32xf16> -> !mirage_block.stensor<1x4x1xf16>
    %r = div %ns, %ds : !mirage_block.stensor<1x4x16xf16>, !mirage_block.stensor<1x4x1xf16> -> !mirage_block.stensor<1x4x16xf16>
    %out = output_saver %r omap <x = 0, y = 1> : !mirage_block.stensor<1x4x16xf16> -> tensor<2x32x16xf16>
    yield %out : tensor<2x32x16xf16>
  }
  return %o : tensor<2x32x16xf16>
}
