// RUN: mirage-opt %s --mirage-check-equivalence -verify-diagnostics -o /dev/null
// RUN: mirage-opt %s --mirage-check-equivalence='seed=987654321 trials=3' -verify-diagnostics -o /dev/null
// RUN: not mirage-opt %s --mirage-check-equivalence -o /dev/null 2>/dev/null

// RMSNorm + Linear with a row length that is not a power of two (K = 48,
// 3 loop iterations): rms_last divides by the exact count 48, like rms_norm.
// A mean written with mul_scalar by 1/48 is different: the f32 constant is
// not exactly 1/48, and the semantics is exact arithmetic on the constant.
//   O = matmul(rms_norm(X, 48), W),  X 4x48, W 48x12.

func.func @ref(%x: tensor<4x48xf32>, %w: tensor<48x12xf32>) -> tensor<4x12xf32> attributes {mirage.reference} {
  %n = mirage_kernel.rms_norm %x size 48 : tensor<4x48xf32>
  %o = mirage_kernel.matmul %n, %w : tensor<4x48xf32>, tensor<48x12xf32> -> tensor<4x12xf32>
  return %o : tensor<4x12xf32>
}

// expected-remark @below {{is equivalent to @ref}}
func.func @fused_rms_last(%x: tensor<4x48xf32>, %w: tensor<48x12xf32>) -> tensor<4x12xf32> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<4x48xf32>, %W = %w : tensor<48x12xf32>)
      -> tensor<4x12xf32> grid [3, 1, 1] block [128, 1, 1] forloop 3 {
    %xt = input_loader %X imap <> fmap 1 : tensor<4x48xf32> -> !mirage_block.stensor<4x16xf32>
    %wt = input_loader %W imap <x = 1> fmap 0 : tensor<48x12xf32> -> !mirage_block.stensor<16x4xf32>
    %mm = matmul %xt, %wt : !mirage_block.stensor<4x16xf32>, !mirage_block.stensor<16x4xf32> -> !mirage_block.stensor<4x4xf32>
    %acc = forloop_accum %mm sum : !mirage_block.stensor<4x4xf32> -> !mirage_block.stensor<4x4xf32>
    %rms = forloop_accum %xt rms_last : !mirage_block.stensor<4x16xf32> -> !mirage_block.stensor<4x1xf32>
    %y = div %acc, %rms : !mirage_block.stensor<4x4xf32>, !mirage_block.stensor<4x1xf32> -> !mirage_block.stensor<4x4xf32>
    %out = output_saver %y omap <x = 1> : !mirage_block.stensor<4x4xf32> -> tensor<4x12xf32>
    yield %out : tensor<4x12xf32>
  }
  return %o : tensor<4x12xf32>
}

// The mean as the sum of squares divided by 48 with a kernel div by a
// reduction of ones (X/X summed over the row = 48 exactly).
// expected-remark @below {{is equivalent to @ref}}
func.func @exact_count_by_division(%x: tensor<4x48xf32>, %w: tensor<48x12xf32>) -> tensor<4x12xf32> {
  %xw = mirage_kernel.matmul %x, %w : tensor<4x48xf32>, tensor<48x12xf32> -> tensor<4x12xf32>
  %sq = mirage_kernel.square %x : tensor<4x48xf32>
  %sum = mirage_kernel.reduction %sq dim 1 : tensor<4x48xf32> -> tensor<4x1xf32>
  %ones = mirage_kernel.div %x, %x : tensor<4x48xf32>, tensor<4x48xf32> -> tensor<4x48xf32>
  %count = mirage_kernel.reduction %ones dim 1 : tensor<4x48xf32> -> tensor<4x1xf32>
  %mean = mirage_kernel.div %sum, %count : tensor<4x1xf32>, tensor<4x1xf32> -> tensor<4x1xf32>
  %rms = mirage_kernel.sqrt %mean : tensor<4x1xf32>
  %o = mirage_kernel.div %xw, %rms : tensor<4x12xf32>, tensor<4x1xf32> -> tensor<4x12xf32>
  return %o : tensor<4x12xf32>
}

// mul_scalar by f32(1/48) = 0.0208333340... is not 1/48.
// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @inexact_constant_mean(%x: tensor<4x48xf32>, %w: tensor<48x12xf32>) -> tensor<4x12xf32> {
  %xw = mirage_kernel.matmul %x, %w : tensor<4x48xf32>, tensor<48x12xf32> -> tensor<4x12xf32>
  %sq = mirage_kernel.square %x : tensor<4x48xf32>
  %sum = mirage_kernel.reduction %sq dim 1 : tensor<4x48xf32> -> tensor<4x1xf32>
  %mean = mirage_kernel.mul_scalar %sum by 0.020833333333333332 : tensor<4x1xf32>
  %rms = mirage_kernel.sqrt %mean : tensor<4x1xf32>
  %o = mirage_kernel.div %xw, %rms : tensor<4x12xf32>, tensor<4x1xf32> -> tensor<4x12xf32>
  return %o : tensor<4x12xf32>
}

// The rms reads X through a loader without fmap whose chunk is fixed by grid
// x (imap <x = 1>): block x squares its chunk x in all 3 iterations and
// misses the other two chunks.
// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @rms_last_fixed_chunk(%x: tensor<4x48xf32>, %w: tensor<48x12xf32>) -> tensor<4x12xf32> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<4x48xf32>, %W = %w : tensor<48x12xf32>)
      -> tensor<4x12xf32> grid [3, 1, 1] block [128, 1, 1] forloop 3 {
    %xt = input_loader %X imap <> fmap 1 : tensor<4x48xf32> -> !mirage_block.stensor<4x16xf32>
    %xg = input_loader %X imap <x = 1> : tensor<4x48xf32> -> !mirage_block.stensor<4x16xf32>
    %wt = input_loader %W imap <x = 1> fmap 0 : tensor<48x12xf32> -> !mirage_block.stensor<16x4xf32>
    %mm = matmul %xt, %wt : !mirage_block.stensor<4x16xf32>, !mirage_block.stensor<16x4xf32> -> !mirage_block.stensor<4x4xf32>
    %acc = forloop_accum %mm sum : !mirage_block.stensor<4x4xf32> -> !mirage_block.stensor<4x4xf32>
    %rms = forloop_accum %xg rms_last : !mirage_block.stensor<4x16xf32> -> !mirage_block.stensor<4x1xf32>
    %y = div %acc, %rms : !mirage_block.stensor<4x4xf32>, !mirage_block.stensor<4x1xf32> -> !mirage_block.stensor<4x4xf32>
    %out = output_saver %y omap <x = 1> : !mirage_block.stensor<4x4xf32> -> tensor<4x12xf32>
    yield %out : tensor<4x12xf32>
  }
  return %o : tensor<4x12xf32>
}
