func.func @many(%y: tensor<131072x512xf16>) -> tensor<131072x64xf16> {
  %o = mirage_kernel.graph_def(%Y = %y : tensor<131072x512xf16>) -> (tensor<131072x64xf16>)
      grid [1024, 1, 1] block [128, 1, 1] forloop 8 {
    %yt = input_loader %Y imap <x = 0> fmap 1 : tensor<131072x512xf16> -> !mirage_block.stensor<128x64xf16>
    %acc = forloop_accum %yt sum : !mirage_block.stensor<128x64xf16> -> !mirage_block.stensor<128x64xf16>
    %s = output_saver %acc omap <x = 0> : !mirage_block.stensor<128x64xf16> -> tensor<131072x64xf16>
    yield %s : tensor<131072x64xf16>
  }
  return %o : tensor<131072x64xf16>
}
