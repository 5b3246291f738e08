// mirage-test-reachable on linear splits: LoRA's X W + (X A) B split over
// the rows of W and A (grid y) and the output's columns (grid x), its
// blocks' terms stacked along the output's rows and summed by a second
// graph_def, is in the search's space (before linear splits, a split's grid
// x could not map the output's last dimension, and the terms' sum was no
// subexpression the oracle could prove).
// RUN: mirage-opt %s --mirage-test-reachable='reference=lora time-limit=30' -verify-diagnostics -o /dev/null
// The split LoRA computes the reference:
// RUN: mirage-opt %s --mirage-check-equivalence=reference=lora -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQUIV
// EQUIV: remark: is equivalent to @lora

func.func @lora(%X: tensor<16x2048xf16>, %W: tensor<2048x256xf16>, %A: tensor<2048x16xf16>, %B: tensor<16x256xf16>) -> tensor<16x256xf16> {
  %XW = mirage_kernel.matmul %X, %W : tensor<16x2048xf16>, tensor<2048x256xf16> -> tensor<16x256xf16>
  %XA = mirage_kernel.matmul %X, %A : tensor<16x2048xf16>, tensor<2048x16xf16> -> tensor<16x16xf16>
  %XAB = mirage_kernel.matmul %XA, %B : tensor<16x16xf16>, tensor<16x256xf16> -> tensor<16x256xf16>
  %O = mirage_kernel.add %XW, %XAB : tensor<16x256xf16>, tensor<16x256xf16> -> tensor<16x256xf16>
  return %O : tensor<16x256xf16>
}

// expected-remark-re @below {{{{^}}reachable{{$}}}}
func.func @lora_split(%X: tensor<16x2048xf16>, %W: tensor<2048x256xf16>, %A: tensor<2048x16xf16>, %B: tensor<16x256xf16>) -> tensor<16x256xf16> {
  %T = mirage_kernel.graph_def(%x = %X : tensor<16x2048xf16>, %w = %W : tensor<2048x256xf16>, %a = %A : tensor<2048x16xf16>, %b = %B : tensor<16x256xf16>) -> tensor<64x256xf16> grid [4, 4, 1] block [128, 1, 1] forloop 4 {
    %xt = input_loader %x imap <y = 1> fmap 1 : tensor<16x2048xf16> -> !mirage_block.stensor<16x128xf16>
    %wt = input_loader %w imap <x = 1, y = 0> fmap 0 : tensor<2048x256xf16> -> !mirage_block.stensor<128x64xf16>
    %at = input_loader %a imap <y = 0> fmap 0 : tensor<2048x16xf16> -> !mirage_block.stensor<128x16xf16>
    %bt = input_loader %b imap <x = 1> : tensor<16x256xf16> -> !mirage_block.stensor<16x64xf16>
    %xw = matmul %xt, %wt : !mirage_block.stensor<16x128xf16>, !mirage_block.stensor<128x64xf16> -> !mirage_block.stensor<16x64xf16>
    %xa = matmul %xt, %at : !mirage_block.stensor<16x128xf16>, !mirage_block.stensor<128x16xf16> -> !mirage_block.stensor<16x16xf16>
    %sw = forloop_accum %xw sum : !mirage_block.stensor<16x64xf16> -> !mirage_block.stensor<16x64xf16>
    %sa = forloop_accum %xa sum : !mirage_block.stensor<16x16xf16> -> !mirage_block.stensor<16x16xf16>
    %ab = matmul %sa, %bt : !mirage_block.stensor<16x16xf16>, !mirage_block.stensor<16x64xf16> -> !mirage_block.stensor<16x64xf16>
    %t = add %sw, %ab : !mirage_block.stensor<16x64xf16>, !mirage_block.stensor<16x64xf16> -> !mirage_block.stensor<16x64xf16>
    %o = output_saver %t omap <x = 1, y = 0> : !mirage_block.stensor<16x64xf16> -> tensor<64x256xf16>
    yield %o : tensor<64x256xf16>
  }
  %O = mirage_kernel.graph_def(%q = %T : tensor<64x256xf16>) -> tensor<16x256xf16> grid [4, 1, 1] block [128, 1, 1] forloop 1 {
    %tt = input_loader %q imap <x = 1> : tensor<64x256xf16> -> !mirage_block.stensor<64x64xf16>
    %s = reduction %tt dim 0 size 16 : !mirage_block.stensor<64x64xf16> -> !mirage_block.stensor<16x64xf16>
    %ot = output_saver %s omap <x = 1> : !mirage_block.stensor<16x64xf16> -> tensor<16x256xf16>
    yield %ot : tensor<16x256xf16>
  }
  return %O : tensor<16x256xf16>
}
