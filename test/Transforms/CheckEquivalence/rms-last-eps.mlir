// RUN: mirage-opt %s --mirage-check-equivalence -verify-diagnostics -o /dev/null
// RUN: not mirage-opt %s --mirage-check-equivalence -o /dev/null 2>/dev/null

// RMSNorm with eps, as models write it, before a Linear:
//   O = matmul(rms_norm(X, 64, eps 1e-6), W),   X 4x64, W 64x32.
// The fused form adds the same eps inside rms_last's square root:
// sqrt(sum x^2 / 64 + eps). Without it, or with another eps, it differs.

func.func @ref(%x: tensor<4x64xf32>, %w: tensor<64x32xf32>) -> tensor<4x32xf32> attributes {mirage.reference} {
  %n = mirage_kernel.rms_norm %x size 64 eps 1.0e-6 : tensor<4x64xf32>
  %o = mirage_kernel.matmul %n, %w : tensor<4x64xf32>, tensor<64x32xf32> -> tensor<4x32xf32>
  return %o : tensor<4x32xf32>
}

// expected-remark @below {{is equivalent to @ref}}
func.func @fused_rms_last_eps(%x: tensor<4x64xf32>, %w: tensor<64x32xf32>) -> tensor<4x32xf32> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<4x64xf32>, %W = %w : tensor<64x32xf32>)
      -> tensor<4x32xf32> grid [4, 1, 1] block [128, 1, 1] forloop 4 {
    %xt = input_loader %X imap <> fmap 1 : tensor<4x64xf32> -> !mirage_block.stensor<4x16xf32>
    %wt = input_loader %W imap <x = 1> fmap 0 : tensor<64x32xf32> -> !mirage_block.stensor<16x8xf32>
    %mm = matmul %xt, %wt : !mirage_block.stensor<4x16xf32>, !mirage_block.stensor<16x8xf32> -> !mirage_block.stensor<4x8xf32>
    %acc = forloop_accum %mm sum : !mirage_block.stensor<4x8xf32> -> !mirage_block.stensor<4x8xf32>
    %rms = forloop_accum %xt rms_last eps 1.0e-6 : !mirage_block.stensor<4x16xf32> -> !mirage_block.stensor<4x1xf32>
    %y = div %acc, %rms : !mirage_block.stensor<4x8xf32>, !mirage_block.stensor<4x1xf32> -> !mirage_block.stensor<4x8xf32>
    %out = output_saver %y omap <x = 1> : !mirage_block.stensor<4x8xf32> -> tensor<4x32xf32>
    yield %out : tensor<4x32xf32>
  }
  return %o : tensor<4x32xf32>
}

// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @rms_last_without_eps(%x: tensor<4x64xf32>, %w: tensor<64x32xf32>) -> tensor<4x32xf32> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<4x64xf32>, %W = %w : tensor<64x32xf32>)
      -> tensor<4x32xf32> grid [4, 1, 1] block [128, 1, 1] forloop 4 {
    %xt = input_loader %X imap <> fmap 1 : tensor<4x64xf32> -> !mirage_block.stensor<4x16xf32>
    %wt = input_loader %W imap <x = 1> fmap 0 : tensor<64x32xf32> -> !mirage_block.stensor<16x8xf32>
    %mm = matmul %xt, %wt : !mirage_block.stensor<4x16xf32>, !mirage_block.stensor<16x8xf32> -> !mirage_block.stensor<4x8xf32>
    %acc = forloop_accum %mm sum : !mirage_block.stensor<4x8xf32> -> !mirage_block.stensor<4x8xf32>
    %rms = forloop_accum %xt rms_last : !mirage_block.stensor<4x16xf32> -> !mirage_block.stensor<4x1xf32>
    %y = div %acc, %rms : !mirage_block.stensor<4x8xf32>, !mirage_block.stensor<4x1xf32> -> !mirage_block.stensor<4x8xf32>
    %out = output_saver %y omap <x = 1> : !mirage_block.stensor<4x8xf32> -> tensor<4x32xf32>
    yield %out : tensor<4x32xf32>
  }
  return %o : tensor<4x32xf32>
}

// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @rms_last_other_eps(%x: tensor<4x64xf32>, %w: tensor<64x32xf32>) -> tensor<4x32xf32> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<4x64xf32>, %W = %w : tensor<64x32xf32>)
      -> tensor<4x32xf32> grid [4, 1, 1] block [128, 1, 1] forloop 4 {
    %xt = input_loader %X imap <> fmap 1 : tensor<4x64xf32> -> !mirage_block.stensor<4x16xf32>
    %wt = input_loader %W imap <x = 1> fmap 0 : tensor<64x32xf32> -> !mirage_block.stensor<16x8xf32>
    %mm = matmul %xt, %wt : !mirage_block.stensor<4x16xf32>, !mirage_block.stensor<16x8xf32> -> !mirage_block.stensor<4x8xf32>
    %acc = forloop_accum %mm sum : !mirage_block.stensor<4x8xf32> -> !mirage_block.stensor<4x8xf32>
    %rms = forloop_accum %xt rms_last eps 1.0e-5 : !mirage_block.stensor<4x16xf32> -> !mirage_block.stensor<4x1xf32>
    %y = div %acc, %rms : !mirage_block.stensor<4x8xf32>, !mirage_block.stensor<4x1xf32> -> !mirage_block.stensor<4x8xf32>
    %out = output_saver %y omap <x = 1> : !mirage_block.stensor<4x8xf32> -> tensor<4x32xf32>
    yield %out : tensor<4x32xf32>
  }
  return %o : tensor<4x32xf32>
}
