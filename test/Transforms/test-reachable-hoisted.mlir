// mirage-test-reachable on µGraphs whose last graph_def saves the operands
// of the final elementwise op, which runs at kernel level (the public
// implementation's gated MLPs): the search builds such a form beside each
// fused candidate, and compares up to the order of the saved results.
// RUN: mirage-opt %s --mirage-test-reachable='reference=gated_mlp time-limit=30' -verify-diagnostics -o /dev/null

func.func @gated_mlp(%x: tensor<2x64xf16>, %w1: tensor<64x32xf16>, %w2: tensor<64x32xf16>) -> tensor<2x32xf16> {
  %g = mirage_kernel.matmul %x, %w1 : tensor<2x64xf16>, tensor<64x32xf16> -> tensor<2x32xf16>
  %a = mirage_kernel.silu %g : tensor<2x32xf16>
  %u = mirage_kernel.matmul %x, %w2 : tensor<2x64xf16>, tensor<64x32xf16> -> tensor<2x32xf16>
  %o = mirage_kernel.mul %a, %u : tensor<2x32xf16>, tensor<2x32xf16> -> tensor<2x32xf16>
  return %o : tensor<2x32xf16>
}

// X·W2 and silu(X·W1) saved in that order, multiplied the other way round
// at kernel level.
// expected-remark-re @below {{{{^}}reachable{{$}}}}
func.func @hoisted_mul(%x: tensor<2x64xf16>, %w1: tensor<64x32xf16>, %w2: tensor<64x32xf16>) -> tensor<2x32xf16> {
  %p:2 = mirage_kernel.graph_def(%X = %x : tensor<2x64xf16>, %W1 = %w1 : tensor<64x32xf16>, %W2 = %w2 : tensor<64x32xf16>) -> (tensor<2x32xf16>, tensor<2x32xf16>)
      grid [2, 1, 1] block [128, 1, 1] forloop 2 {
    %a = input_loader %X imap <> fmap 1 : tensor<2x64xf16> -> !mirage_block.stensor<2x32xf16>
    %b = input_loader %W1 imap <x = 1> fmap 0 : tensor<64x32xf16> -> !mirage_block.stensor<32x16xf16>
    %c = input_loader %W2 imap <x = 1> fmap 0 : tensor<64x32xf16> -> !mirage_block.stensor<32x16xf16>
    %g = matmul %a, %b : !mirage_block.stensor<2x32xf16>, !mirage_block.stensor<32x16xf16> -> !mirage_block.stensor<2x16xf16>
    %u = matmul %a, %c : !mirage_block.stensor<2x32xf16>, !mirage_block.stensor<32x16xf16> -> !mirage_block.stensor<2x16xf16>
    %gs = forloop_accum %g sum : !mirage_block.stensor<2x16xf16> -> !mirage_block.stensor<2x16xf16>
    %us = forloop_accum %u sum : !mirage_block.stensor<2x16xf16> -> !mirage_block.stensor<2x16xf16>
    %s = silu %gs : !mirage_block.stensor<2x16xf16>
    %r0 = output_saver %us omap <x = 1> : !mirage_block.stensor<2x16xf16> -> tensor<2x32xf16>
    %r1 = output_saver %s omap <x = 1> : !mirage_block.stensor<2x16xf16> -> tensor<2x32xf16>
    yield %r0, %r1 : tensor<2x32xf16>, tensor<2x32xf16>
  }
  %o = mirage_kernel.mul %p#0, %p#1 : tensor<2x32xf16>, tensor<2x32xf16> -> tensor<2x32xf16>
  return %o : tensor<2x32xf16>
}

// X·W2 at kernel level, and so a `mul` that reads more than graph_def
// results: no hoisted final op.
// expected-remark @below {{unreachable (kernel ops): kernel-level matmul, mul beside the graph_defs; the search builds graph_defs, a final elementwise op after them, and a unary op of an input that a combining kernel reads}}
func.func @kernel_matmul(%x: tensor<2x64xf16>, %w1: tensor<64x32xf16>, %w2: tensor<64x32xf16>) -> tensor<2x32xf16> {
  %s = mirage_kernel.graph_def(%X = %x : tensor<2x64xf16>, %W1 = %w1 : tensor<64x32xf16>) -> tensor<2x32xf16>
      grid [2, 1, 1] block [128, 1, 1] forloop 2 {
    %a = input_loader %X imap <> fmap 1 : tensor<2x64xf16> -> !mirage_block.stensor<2x32xf16>
    %b = input_loader %W1 imap <x = 1> fmap 0 : tensor<64x32xf16> -> !mirage_block.stensor<32x16xf16>
    %g = matmul %a, %b : !mirage_block.stensor<2x32xf16>, !mirage_block.stensor<32x16xf16> -> !mirage_block.stensor<2x16xf16>
    %gs = forloop_accum %g sum : !mirage_block.stensor<2x16xf16> -> !mirage_block.stensor<2x16xf16>
    %t = silu %gs : !mirage_block.stensor<2x16xf16>
    %r = output_saver %t omap <x = 1> : !mirage_block.stensor<2x16xf16> -> tensor<2x32xf16>
    yield %r : tensor<2x32xf16>
  }
  %u = mirage_kernel.matmul %x, %w2 : tensor<2x64xf16>, tensor<64x32xf16> -> tensor<2x32xf16>
  %o = mirage_kernel.mul %s, %u : tensor<2x32xf16>, tensor<2x32xf16> -> tensor<2x32xf16>
  return %o : tensor<2x32xf16>
}
