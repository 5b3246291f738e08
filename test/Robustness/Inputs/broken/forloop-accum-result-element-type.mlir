// accumulator result may be the input's type or f32, not bf16
func.func @f(%a: tensor<16x256xf16>) -> tensor<16x64xbf16> {
  %o = mirage_kernel.graph_def(%A = %a : tensor<16x256xf16>) -> tensor<16x64xbf16>
      grid [1, 1, 1] block [128, 1, 1] forloop 4 {
    %at = input_loader %A imap <> fmap 1 : tensor<16x256xf16> -> !mirage_block.stensor<16x64xf16>
    %acc = forloop_accum %at sum : !mirage_block.stensor<16x64xf16> -> !mirage_block.stensor<16x64xbf16>
    %out = output_saver %acc omap <> : !mirage_block.stensor<16x64xbf16> -> tensor<16x64xbf16>
    yield %out : tensor<16x64xbf16>
  }
  return %o : tensor<16x64xbf16>
}
