// RUN: mirage-translate --mirage-to-triton %s | FileCheck %s

// rms_last with an eps: the root of the mean of squares plus eps, after
// the loop.
// CHECK: acc1 += tl.sum(load0 * load0, axis=1, keep_dims=True)
// CHECK: acc1 = tl.sqrt(acc1 / 1024.0 + 9.99999997e-07)
func.func @rms_rows_eps(%x: tensor<16x1024xf16>) -> tensor<16x1xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<16x1024xf16>) -> tensor<16x1xf16>
      grid [1, 1, 1] block [128, 1, 1] forloop 4 {
    %xt = input_loader %X imap <> fmap 1 : tensor<16x1024xf16> -> !mirage_block.stensor<16x256xf16>
    %r = forloop_accum %xt rms_last eps 1.0e-6 : !mirage_block.stensor<16x256xf16> -> !mirage_block.stensor<16x1xf16>
    %s = output_saver %r omap <> : !mirage_block.stensor<16x1xf16> -> tensor<16x1xf16>
    yield %s : tensor<16x1xf16>
  }
  return %o : tensor<16x1xf16>
}
