// Functions whose Triton forms are the same text but for their names (a
// candidate and its cp.async variant: the copy mode is a PTX decision) share
// one host function and its kernels; FUNCTIONS lists each under its own name,
// so the tuner compiles and measures the form once. Block threads set the
// form's num_warps, so a 256-thread variant has a form of its own.
// RUN: mirage-translate --mirage-to-triton %s -o %t.py
// RUN: FileCheck %s < %t.py
// RUN: %python -m py_compile %t.py

// CHECK: def tile_sum_graph_def0(
// CHECK-NOT: def tile_sum_async_graph_def0(
// CHECK: def tile_sum_threads_graph_def0(
// CHECK: def tile_sum_halves_graph_def0(
// CHECK: def tile_sum(arg0, out=None):
// CHECK-NEXT: """@tile_sum: takes
// CHECK: tile_sum_graph_def0[(1, 1, 1)](arg0, graph_def0, num_warps=4)
// CHECK-NOT: def tile_sum_async(
// CHECK: def tile_sum_threads(arg0, out=None):
// CHECK-NEXT: """@tile_sum_threads: takes
// CHECK: tile_sum_threads_graph_def0[(1, 1, 1)](arg0, graph_def0, num_warps=8)
// CHECK: def tile_sum_halves(arg0, out=None):
// CHECK: FUNCTIONS = {
// CHECK-NEXT: "tile_sum": (tile_sum, [((8, 256), torch.float16)], [((8, 1), torch.float16)]),
// CHECK-NEXT: "tile_sum_async": (tile_sum, [((8, 256), torch.float16)], [((8, 1), torch.float16)]),  # the Triton form of @tile_sum
// CHECK-NEXT: "tile_sum_threads": (tile_sum_threads, [((8, 256), torch.float16)], [((8, 1), torch.float16)]),
// CHECK-NEXT: "tile_sum_halves": (tile_sum_halves, [((8, 256), torch.float16)], [((8, 1), torch.float16)]),
// CHECK-NEXT: }

func.func @tile_sum(%x: tensor<8x256xf16>) -> tensor<8x1xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<8x256xf16>) -> tensor<8x1xf16>
      grid [1, 1, 1] block [128, 1, 1] forloop 4 {
    %t = input_loader %X imap <> fmap 1 : tensor<8x256xf16> -> !mirage_block.stensor<8x64xf16>
    %a = forloop_accum %t sum_last : !mirage_block.stensor<8x64xf16> -> !mirage_block.stensor<8x1xf16>
    %s = output_saver %a omap <> : !mirage_block.stensor<8x1xf16> -> tensor<8x1xf16>
    yield %s : tensor<8x1xf16>
  }
  return %o : tensor<8x1xf16>
}

func.func @tile_sum_async(%x: tensor<8x256xf16>) -> tensor<8x1xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<8x256xf16>) -> tensor<8x1xf16>
      grid [1, 1, 1] block [128, 1, 1] forloop 4 async_copies {
    %t = input_loader %X imap <> fmap 1 : tensor<8x256xf16> -> !mirage_block.stensor<8x64xf16>
    %a = forloop_accum %t sum_last : !mirage_block.stensor<8x64xf16> -> !mirage_block.stensor<8x1xf16>
    %s = output_saver %a omap <> : !mirage_block.stensor<8x1xf16> -> tensor<8x1xf16>
    yield %s : tensor<8x1xf16>
  }
  return %o : tensor<8x1xf16>
}

func.func @tile_sum_threads(%x: tensor<8x256xf16>) -> tensor<8x1xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<8x256xf16>) -> tensor<8x1xf16>
      grid [1, 1, 1] block [256, 1, 1] forloop 4 {
    %t = input_loader %X imap <> fmap 1 : tensor<8x256xf16> -> !mirage_block.stensor<8x64xf16>
    %a = forloop_accum %t sum_last : !mirage_block.stensor<8x64xf16> -> !mirage_block.stensor<8x1xf16>
    %s = output_saver %a omap <> : !mirage_block.stensor<8x1xf16> -> tensor<8x1xf16>
    yield %s : tensor<8x1xf16>
  }
  return %o : tensor<8x1xf16>
}

// Another for-loop: another form.
func.func @tile_sum_halves(%x: tensor<8x256xf16>) -> tensor<8x1xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<8x256xf16>) -> tensor<8x1xf16>
      grid [1, 1, 1] block [128, 1, 1] forloop 2 {
    %t = input_loader %X imap <> fmap 1 : tensor<8x256xf16> -> !mirage_block.stensor<8x128xf16>
    %a = forloop_accum %t sum_last : !mirage_block.stensor<8x128xf16> -> !mirage_block.stensor<8x1xf16>
    %s = output_saver %a omap <> : !mirage_block.stensor<8x1xf16> -> tensor<8x1xf16>
    yield %s : tensor<8x1xf16>
  }
  return %o : tensor<8x1xf16>
}
