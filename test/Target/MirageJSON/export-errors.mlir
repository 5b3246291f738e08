// RUN: not mirage-translate --export-mirage-json %s --split-input-file 2>&1 | FileCheck %s

// Programs outside the format get a diagnostic.
// CHECK: error: 'mirage_kernel.reduction' op has no equivalent in the µGraph JSON format
func.func @reduction(%x: tensor<4x8xf16>) -> tensor<4x1xf16> {
  %r = mirage_kernel.reduction %x dim 1 : tensor<4x8xf16> -> tensor<4x1xf16>
  return %r : tensor<4x1xf16>
}

// -----

// CHECK: error: 'func.func' op uses 'tensor<4x8xf32>': the µGraph JSON format holds only f16 tensors
func.func @f32(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = mirage_kernel.exp %x : tensor<4x8xf32>
  return %e : tensor<4x8xf32>
}

// -----

// The format's rms accumulator has no eps.
// CHECK: error: 'mirage_block.forloop_accum' op has no equivalent in the µGraph JSON format
func.func @rms_last_eps(%x: tensor<4x64xf16>) -> tensor<4x1xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<4x64xf16>) -> tensor<4x1xf16>
      grid [1, 1, 1] block [128, 1, 1] forloop 4 {
    %xt = input_loader %X imap <> fmap 1 : tensor<4x64xf16> -> !mirage_block.stensor<4x16xf16>
    %r = forloop_accum %xt rms_last eps 1.0e-6 : !mirage_block.stensor<4x16xf16> -> !mirage_block.stensor<4x1xf16>
    %s = output_saver %r omap <> : !mirage_block.stensor<4x1xf16> -> tensor<4x1xf16>
    yield %s : tensor<4x1xf16>
  }
  return %o : tensor<4x1xf16>
}
