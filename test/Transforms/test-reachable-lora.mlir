// mirage-test-reachable: without a for-loop, a `forloop_accum sum` is its
// operand, so a LoRA kernel that accumulates its sum over one iteration (as
// the public implementation's saved LoRA µGraphs do, at the benchmark's
// shapes) is the search's, which
// saves the sum as it is.
// RUN: mirage-opt %s --mirage-test-reachable='reference=lora time-limit=20' -verify-diagnostics -o /dev/null
// RUN: mirage-opt %s --mirage-check-equivalence=reference=lora -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQUIV
// EQUIV: remark: is equivalent to @lora

func.func @lora(%X: tensor<16x256xf16>, %W: tensor<256x4096xf16>, %A: tensor<256x16xf16>, %B: tensor<16x4096xf16>) -> tensor<16x4096xf16> {
  %XW = mirage_kernel.matmul %X, %W : tensor<16x256xf16>, tensor<256x4096xf16> -> tensor<16x4096xf16>
  %XA = mirage_kernel.matmul %X, %A : tensor<16x256xf16>, tensor<256x16xf16> -> tensor<16x16xf16>
  %XAB = mirage_kernel.matmul %XA, %B : tensor<16x16xf16>, tensor<16x4096xf16> -> tensor<16x4096xf16>
  %O = mirage_kernel.add %XW, %XAB : tensor<16x4096xf16>, tensor<16x4096xf16> -> tensor<16x4096xf16>
  return %O : tensor<16x4096xf16>
}

// expected-remark-re @below {{{{^}}reachable{{$}}}}
func.func @one_iteration(%X: tensor<16x256xf16>, %W: tensor<256x4096xf16>, %A: tensor<256x16xf16>, %B: tensor<16x4096xf16>) -> tensor<16x4096xf16> {
  %o = mirage_kernel.graph_def(%x = %X : tensor<16x256xf16>, %w = %W : tensor<256x4096xf16>, %a = %A : tensor<256x16xf16>, %b = %B : tensor<16x4096xf16>) -> tensor<16x4096xf16> grid [64, 1, 1] block [128, 1, 1] forloop 1 {
    %xt = input_loader %x imap <> : tensor<16x256xf16> -> !mirage_block.stensor<16x256xf16>
    %wt = input_loader %w imap <x = 1> : tensor<256x4096xf16> -> !mirage_block.stensor<256x64xf16>
    %at = input_loader %a imap <> : tensor<256x16xf16> -> !mirage_block.stensor<256x16xf16>
    %bt = input_loader %b imap <x = 1> : tensor<16x4096xf16> -> !mirage_block.stensor<16x64xf16>
    %xw = matmul %xt, %wt : !mirage_block.stensor<16x256xf16>, !mirage_block.stensor<256x64xf16> -> !mirage_block.stensor<16x64xf16>
    %xa = matmul %xt, %at : !mirage_block.stensor<16x256xf16>, !mirage_block.stensor<256x16xf16> -> !mirage_block.stensor<16x16xf16>
    %xab = matmul %xa, %bt : !mirage_block.stensor<16x16xf16>, !mirage_block.stensor<16x64xf16> -> !mirage_block.stensor<16x64xf16>
    %sum = add %xab, %xw : !mirage_block.stensor<16x64xf16>, !mirage_block.stensor<16x64xf16> -> !mirage_block.stensor<16x64xf16>
    %acc = forloop_accum %sum sum : !mirage_block.stensor<16x64xf16> -> !mirage_block.stensor<16x64xf16>
    %out = output_saver %acc omap <x = 1> : !mirage_block.stensor<16x64xf16> -> tensor<16x4096xf16>
    yield %out : tensor<16x4096xf16>
  }
  return %o : tensor<16x4096xf16>
}
