// RUN: mirage-opt %s --mirage-test-kernel-schedule=chip=sm_90a -o /dev/null | FileCheck %s --check-prefix=DEFAULT
// RUN: mirage-opt %s --mirage-test-kernel-schedule="chip=sm_90a preload-one-pass=true" -o /dev/null | FileCheck %s --check-prefix=ONEPASS
// RUN: rm -rf %t && mirage-bundle %s --chips=sm_90a --preload-one-pass -o %t
// RUN: FileCheck %s --check-prefix=PTX < %t/sm_90a.ptx

// A split µGraph's combining kernel (MQA bs1's, examples/mugraphs): one
// iteration that reads the partial numerators and then the row sums, each
// in its reduction's turn. With preload-one-pass, both tiles are copied
// into shared memory first (cp.async), so that their loads are in flight
// at once. A body of one iteration that reads one tile, and a body with a
// for-loop, keep their schedule.

func.func @combine(%P: tensor<1x1024x1024xf16>, %S: tensor<1x1024x16xf16>) -> tensor<1x1024x64xf16> {
  %O = mirage_kernel.graph_def(%Pg = %P : tensor<1x1024x1024xf16>, %Sg = %S : tensor<1x1024x16xf16>) -> tensor<1x1024x64xf16>
      grid [1, 256, 1] block [256, 1, 1] forloop 1 {
    %p = input_loader %Pg imap <x = 0, y = 1> : tensor<1x1024x1024xf16> -> !mirage_block.stensor<1x4x1024xf16>
    %s = input_loader %Sg imap <x = 0, y = 1> : tensor<1x1024x16xf16> -> !mirage_block.stensor<1x4x16xf16>
    %num = reduction %p dim 2 size 64 : !mirage_block.stensor<1x4x1024xf16> -> !mirage_block.stensor<1x4x64xf16>
    %den = reduction %s dim 2 : !mirage_block.stensor<1x4x16xf16> -> !mirage_block.stensor<1x4x1xf16>
    %o = div %num, %den : !mirage_block.stensor<1x4x64xf16>, !mirage_block.stensor<1x4x1xf16> -> !mirage_block.stensor<1x4x64xf16>
    %r = output_saver %o omap <x = 0, y = 1> : !mirage_block.stensor<1x4x64xf16> -> tensor<1x1024x64xf16>
    yield %r : tensor<1x1024x64xf16>
  }
  return %O : tensor<1x1024x64xf16>
}

// DEFAULT-LABEL: kernel combine#0 on sm_90a
// DEFAULT-NOT:   preloaded
// DEFAULT:       kernel rows#0

// ONEPASS-LABEL: kernel combine#0 on sm_90a
// ONEPASS:         preloaded #0 input_loader
// ONEPASS-NEXT:    preloaded #1 input_loader

// PTX-LABEL: .entry combine_kernel0(
// PTX-COUNT-3: cp.async.cg.shared.global
// PTX:         cp.async.wait_group 0;
// PTX-NOT:     ld.global
// PTX:         ld.shared
// PTX-LABEL: .entry rows_kernel0(

func.func @rows(%X: tensor<8x4096xf16>) -> tensor<8x4096xf16> {
  %O = mirage_kernel.graph_def(%Xg = %X : tensor<8x4096xf16>) -> tensor<8x4096xf16>
      grid [8, 1, 1] block [256, 1, 1] forloop 1 {
    %x = input_loader %Xg imap <x = 0> : tensor<8x4096xf16> -> !mirage_block.stensor<1x4096xf16>
    %e = exp %x : !mirage_block.stensor<1x4096xf16>
    %r = output_saver %e omap <x = 0> : !mirage_block.stensor<1x4096xf16> -> tensor<8x4096xf16>
    yield %r : tensor<8x4096xf16>
  }
  return %O : tensor<8x4096xf16>
}

// ONEPASS-LABEL: kernel rows#0 on sm_90a
// ONEPASS-NOT:   preloaded
