// RUN: mirage-opt %s --mirage-check-equivalence -verify-diagnostics -o /dev/null
// RUN: mirage-opt %s --mirage-check-equivalence='seed=987654321 trials=3' -verify-diagnostics -o /dev/null
// RUN: not mirage-opt %s --mirage-check-equivalence -o /dev/null 2>/dev/null

// Single-mistake mutants of RMSNorm + Linear, O = matmul(rms_norm(X, 64), W)
// (X 4x64, W 64x32). The correct versions are in equivalent-rmsnorm-linear.mlir:
// @fused_rms_last, @fused_sum_last_of_squares, @denominator_after_matmul.

func.func @ref(%x: tensor<4x64xf32>, %w: tensor<64x32xf32>) -> tensor<4x32xf32> attributes {mirage.reference} {
  %n = mirage_kernel.rms_norm %x size 64 : tensor<4x64xf32>
  %o = mirage_kernel.matmul %n, %w : tensor<4x64xf32>, tensor<64x32xf32> -> tensor<4x32xf32>
  return %o : tensor<4x32xf32>
}

// rms_norm with eps 1e-6 instead of the reference's eps 0.
// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @rms_norm_eps(%x: tensor<4x64xf32>, %w: tensor<64x32xf32>) -> tensor<4x32xf32> {
  %n = mirage_kernel.rms_norm %x size 64 eps 1.0e-6 : tensor<4x64xf32>
  %o = mirage_kernel.matmul %n, %w : tensor<4x64xf32>, tensor<64x32xf32> -> tensor<4x32xf32>
  return %o : tensor<4x32xf32>
}

// forloop_accum sum_last (sum of x) instead of rms_last.
// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @rms_last_to_sum_last(%x: tensor<4x64xf32>, %w: tensor<64x32xf32>) -> tensor<4x32xf32> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<4x64xf32>, %W = %w : tensor<64x32xf32>)
      -> tensor<4x32xf32> grid [4, 1, 1] block [128, 1, 1] forloop 4 {
    %xt = input_loader %X imap <> fmap 1 : tensor<4x64xf32> -> !mirage_block.stensor<4x16xf32>
    %wt = input_loader %W imap <x = 1> fmap 0 : tensor<64x32xf32> -> !mirage_block.stensor<16x8xf32>
    %mm = matmul %xt, %wt : !mirage_block.stensor<4x16xf32>, !mirage_block.stensor<16x8xf32> -> !mirage_block.stensor<4x8xf32>
    %acc = forloop_accum %mm sum : !mirage_block.stensor<4x8xf32> -> !mirage_block.stensor<4x8xf32>
    %rms = forloop_accum %xt sum_last : !mirage_block.stensor<4x16xf32> -> !mirage_block.stensor<4x1xf32>
    %y = div %acc, %rms : !mirage_block.stensor<4x8xf32>, !mirage_block.stensor<4x1xf32> -> !mirage_block.stensor<4x8xf32>
    %out = output_saver %y omap <x = 1> : !mirage_block.stensor<4x8xf32> -> tensor<4x32xf32>
    yield %out : tensor<4x32xf32>
  }
  return %o : tensor<4x32xf32>
}

// forloop_accum max instead of sum for the matmul.
// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @accum_max(%x: tensor<4x64xf32>, %w: tensor<64x32xf32>) -> tensor<4x32xf32> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<4x64xf32>, %W = %w : tensor<64x32xf32>)
      -> tensor<4x32xf32> grid [4, 1, 1] block [128, 1, 1] forloop 4 {
    %xt = input_loader %X imap <> fmap 1 : tensor<4x64xf32> -> !mirage_block.stensor<4x16xf32>
    %wt = input_loader %W imap <x = 1> fmap 0 : tensor<64x32xf32> -> !mirage_block.stensor<16x8xf32>
    %mm = matmul %xt, %wt : !mirage_block.stensor<4x16xf32>, !mirage_block.stensor<16x8xf32> -> !mirage_block.stensor<4x8xf32>
    %acc = forloop_accum %mm max : !mirage_block.stensor<4x8xf32> -> !mirage_block.stensor<4x8xf32>
    %rms = forloop_accum %xt rms_last : !mirage_block.stensor<4x16xf32> -> !mirage_block.stensor<4x1xf32>
    %y = div %acc, %rms : !mirage_block.stensor<4x8xf32>, !mirage_block.stensor<4x1xf32> -> !mirage_block.stensor<4x8xf32>
    %out = output_saver %y omap <x = 1> : !mirage_block.stensor<4x8xf32> -> tensor<4x32xf32>
    yield %out : tensor<4x32xf32>
  }
  return %o : tensor<4x32xf32>
}

// rms / (X W) instead of (X W) / rms.
// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @swapped_div(%x: tensor<4x64xf32>, %w: tensor<64x32xf32>) -> tensor<4x32xf32> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<4x64xf32>, %W = %w : tensor<64x32xf32>)
      -> tensor<4x32xf32> grid [4, 1, 1] block [128, 1, 1] forloop 4 {
    %xt = input_loader %X imap <> fmap 1 : tensor<4x64xf32> -> !mirage_block.stensor<4x16xf32>
    %wt = input_loader %W imap <x = 1> fmap 0 : tensor<64x32xf32> -> !mirage_block.stensor<16x8xf32>
    %mm = matmul %xt, %wt : !mirage_block.stensor<4x16xf32>, !mirage_block.stensor<16x8xf32> -> !mirage_block.stensor<4x8xf32>
    %acc = forloop_accum %mm sum : !mirage_block.stensor<4x8xf32> -> !mirage_block.stensor<4x8xf32>
    %rms = forloop_accum %xt rms_last : !mirage_block.stensor<4x16xf32> -> !mirage_block.stensor<4x1xf32>
    %y = div %rms, %acc : !mirage_block.stensor<4x1xf32>, !mirage_block.stensor<4x8xf32> -> !mirage_block.stensor<4x8xf32>
    %out = output_saver %y omap <x = 1> : !mirage_block.stensor<4x8xf32> -> tensor<4x32xf32>
    yield %out : tensor<4x32xf32>
  }
  return %o : tensor<4x32xf32>
}

// rms_last of the matmul tile instead of the X tile.
// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @rms_of_matmul(%x: tensor<4x64xf32>, %w: tensor<64x32xf32>) -> tensor<4x32xf32> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<4x64xf32>, %W = %w : tensor<64x32xf32>)
      -> tensor<4x32xf32> grid [4, 1, 1] block [128, 1, 1] forloop 4 {
    %xt = input_loader %X imap <> fmap 1 : tensor<4x64xf32> -> !mirage_block.stensor<4x16xf32>
    %wt = input_loader %W imap <x = 1> fmap 0 : tensor<64x32xf32> -> !mirage_block.stensor<16x8xf32>
    %mm = matmul %xt, %wt : !mirage_block.stensor<4x16xf32>, !mirage_block.stensor<16x8xf32> -> !mirage_block.stensor<4x8xf32>
    %acc = forloop_accum %mm sum : !mirage_block.stensor<4x8xf32> -> !mirage_block.stensor<4x8xf32>
    %rms = forloop_accum %mm rms_last : !mirage_block.stensor<4x8xf32> -> !mirage_block.stensor<4x1xf32>
    %y = div %acc, %rms : !mirage_block.stensor<4x8xf32>, !mirage_block.stensor<4x1xf32> -> !mirage_block.stensor<4x8xf32>
    %out = output_saver %y omap <x = 1> : !mirage_block.stensor<4x8xf32> -> tensor<4x32xf32>
    yield %out : tensor<4x32xf32>
  }
  return %o : tensor<4x32xf32>
}

// The rms accumulator is computed but the division by it is missing.
// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @missing_rms_term(%x: tensor<4x64xf32>, %w: tensor<64x32xf32>) -> tensor<4x32xf32> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<4x64xf32>, %W = %w : tensor<64x32xf32>)
      -> tensor<4x32xf32> grid [4, 1, 1] block [128, 1, 1] forloop 4 {
    %xt = input_loader %X imap <> fmap 1 : tensor<4x64xf32> -> !mirage_block.stensor<4x16xf32>
    %wt = input_loader %W imap <x = 1> fmap 0 : tensor<64x32xf32> -> !mirage_block.stensor<16x8xf32>
    %mm = matmul %xt, %wt : !mirage_block.stensor<4x16xf32>, !mirage_block.stensor<16x8xf32> -> !mirage_block.stensor<4x8xf32>
    %acc = forloop_accum %mm sum : !mirage_block.stensor<4x8xf32> -> !mirage_block.stensor<4x8xf32>
    %rms = forloop_accum %xt rms_last : !mirage_block.stensor<4x16xf32> -> !mirage_block.stensor<4x1xf32>
    %y = div %acc, %rms : !mirage_block.stensor<4x8xf32>, !mirage_block.stensor<4x1xf32> -> !mirage_block.stensor<4x8xf32>
    %out = output_saver %acc omap <x = 1> : !mirage_block.stensor<4x8xf32> -> tensor<4x32xf32>
    yield %out : tensor<4x32xf32>
  }
  return %o : tensor<4x32xf32>
}

// The rms reads X through a loader without fmap whose K-chunk is fixed
// by grid x (imap <x = 1>): every iteration sees the same chunk, 3 of 4 are missed.
// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @rms_from_grid_chunk(%x: tensor<4x64xf32>, %w: tensor<64x32xf32>) -> tensor<4x32xf32> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<4x64xf32>, %W = %w : tensor<64x32xf32>)
      -> tensor<4x32xf32> grid [4, 1, 1] block [128, 1, 1] forloop 4 {
    %xt = input_loader %X imap <> fmap 1 : tensor<4x64xf32> -> !mirage_block.stensor<4x16xf32>
    %wt = input_loader %W imap <x = 1> fmap 0 : tensor<64x32xf32> -> !mirage_block.stensor<16x8xf32>
    %mm = matmul %xt, %wt : !mirage_block.stensor<4x16xf32>, !mirage_block.stensor<16x8xf32> -> !mirage_block.stensor<4x8xf32>
    %acc = forloop_accum %mm sum : !mirage_block.stensor<4x8xf32> -> !mirage_block.stensor<4x8xf32>
    %xg = input_loader %X imap <x = 1> : tensor<4x64xf32> -> !mirage_block.stensor<4x16xf32>
    %rms = forloop_accum %xg rms_last : !mirage_block.stensor<4x16xf32> -> !mirage_block.stensor<4x1xf32>
    %y = div %acc, %rms : !mirage_block.stensor<4x8xf32>, !mirage_block.stensor<4x1xf32> -> !mirage_block.stensor<4x8xf32>
    %out = output_saver %y omap <x = 1> : !mirage_block.stensor<4x8xf32> -> tensor<4x32xf32>
    yield %out : tensor<4x32xf32>
  }
  return %o : tensor<4x32xf32>
}

// W loaded with (imap, fmap) = (<x = 0>, 1) instead of (<x = 1>, 0): the same
// 16x8 tile shape, but block x reads K-rows [16x, 16x+16) and iteration i
// the columns [8i, 8i+8).
// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @wrong_w_imap(%x: tensor<4x64xf32>, %w: tensor<64x32xf32>) -> tensor<4x32xf32> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<4x64xf32>, %W = %w : tensor<64x32xf32>)
      -> tensor<4x32xf32> grid [4, 1, 1] block [128, 1, 1] forloop 4 {
    %xt = input_loader %X imap <> fmap 1 : tensor<4x64xf32> -> !mirage_block.stensor<4x16xf32>
    %wt = input_loader %W imap <x = 0> fmap 1 : tensor<64x32xf32> -> !mirage_block.stensor<16x8xf32>
    %mm = matmul %xt, %wt : !mirage_block.stensor<4x16xf32>, !mirage_block.stensor<16x8xf32> -> !mirage_block.stensor<4x8xf32>
    %acc = forloop_accum %mm sum : !mirage_block.stensor<4x8xf32> -> !mirage_block.stensor<4x8xf32>
    %rms = forloop_accum %xt rms_last : !mirage_block.stensor<4x16xf32> -> !mirage_block.stensor<4x1xf32>
    %y = div %acc, %rms : !mirage_block.stensor<4x8xf32>, !mirage_block.stensor<4x1xf32> -> !mirage_block.stensor<4x8xf32>
    %out = output_saver %y omap <x = 1> : !mirage_block.stensor<4x8xf32> -> tensor<4x32xf32>
    yield %out : tensor<4x32xf32>
  }
  return %o : tensor<4x32xf32>
}

// The mean divides by the tile width (16) instead of the row length (64).
// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @mean_over_tile_width(%x: tensor<4x64xf32>, %w: tensor<64x32xf32>) -> tensor<4x32xf32> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<4x64xf32>, %W = %w : tensor<64x32xf32>)
      -> tensor<4x32xf32> grid [4, 1, 1] block [128, 1, 1] forloop 4 {
    %xt = input_loader %X imap <> fmap 1 : tensor<4x64xf32> -> !mirage_block.stensor<4x16xf32>
    %wt = input_loader %W imap <x = 1> fmap 0 : tensor<64x32xf32> -> !mirage_block.stensor<16x8xf32>
    %mm = matmul %xt, %wt : !mirage_block.stensor<4x16xf32>, !mirage_block.stensor<16x8xf32> -> !mirage_block.stensor<4x8xf32>
    %acc = forloop_accum %mm sum : !mirage_block.stensor<4x8xf32> -> !mirage_block.stensor<4x8xf32>
    %sq = square %xt : !mirage_block.stensor<4x16xf32>
    %ss = forloop_accum %sq sum_last : !mirage_block.stensor<4x16xf32> -> !mirage_block.stensor<4x1xf32>
    %mean = mul_scalar %ss by 6.250000e-02 : !mirage_block.stensor<4x1xf32>
    %rms = sqrt %mean : !mirage_block.stensor<4x1xf32>
    %y = div %acc, %rms : !mirage_block.stensor<4x8xf32>, !mirage_block.stensor<4x1xf32> -> !mirage_block.stensor<4x8xf32>
    %out = output_saver %y omap <x = 1> : !mirage_block.stensor<4x8xf32> -> tensor<4x32xf32>
    yield %out : tensor<4x32xf32>
  }
  return %o : tensor<4x32xf32>
}

// The square before the sum_last dropped: sqrt(mean(x)).
// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @square_dropped(%x: tensor<4x64xf32>, %w: tensor<64x32xf32>) -> tensor<4x32xf32> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<4x64xf32>, %W = %w : tensor<64x32xf32>)
      -> tensor<4x32xf32> grid [4, 1, 1] block [128, 1, 1] forloop 4 {
    %xt = input_loader %X imap <> fmap 1 : tensor<4x64xf32> -> !mirage_block.stensor<4x16xf32>
    %wt = input_loader %W imap <x = 1> fmap 0 : tensor<64x32xf32> -> !mirage_block.stensor<16x8xf32>
    %mm = matmul %xt, %wt : !mirage_block.stensor<4x16xf32>, !mirage_block.stensor<16x8xf32> -> !mirage_block.stensor<4x8xf32>
    %acc = forloop_accum %mm sum : !mirage_block.stensor<4x8xf32> -> !mirage_block.stensor<4x8xf32>
    %sq = square %xt : !mirage_block.stensor<4x16xf32>
    %ss = forloop_accum %xt sum_last : !mirage_block.stensor<4x16xf32> -> !mirage_block.stensor<4x1xf32>
    %mean = mul_scalar %ss by 1.562500e-02 : !mirage_block.stensor<4x1xf32>
    %rms = sqrt %mean : !mirage_block.stensor<4x1xf32>
    %y = div %acc, %rms : !mirage_block.stensor<4x8xf32>, !mirage_block.stensor<4x1xf32> -> !mirage_block.stensor<4x8xf32>
    %out = output_saver %y omap <x = 1> : !mirage_block.stensor<4x8xf32> -> tensor<4x32xf32>
    yield %out : tensor<4x32xf32>
  }
  return %o : tensor<4x32xf32>
}

// Kernel level: (X W) / rsqrt(mean) instead of (X W) / sqrt(mean).
// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @rsqrt_instead_of_sqrt(%x: tensor<4x64xf32>, %w: tensor<64x32xf32>) -> tensor<4x32xf32> {
  %xw = mirage_kernel.matmul %x, %w : tensor<4x64xf32>, tensor<64x32xf32> -> tensor<4x32xf32>
  %sq = mirage_kernel.square %x : tensor<4x64xf32>
  %sum = mirage_kernel.reduction %sq dim 1 : tensor<4x64xf32> -> tensor<4x1xf32>
  %mean = mirage_kernel.mul_scalar %sum by 1.562500e-02 : tensor<4x1xf32>
  %rms = mirage_kernel.rsqrt %mean : tensor<4x1xf32>
  %o = mirage_kernel.div %xw, %rms : tensor<4x32xf32>, tensor<4x1xf32> -> tensor<4x32xf32>
  return %o : tensor<4x32xf32>
}

// Kernel level: mean with 1/32 instead of 1/64.
// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @mean_constant(%x: tensor<4x64xf32>, %w: tensor<64x32xf32>) -> tensor<4x32xf32> {
  %xw = mirage_kernel.matmul %x, %w : tensor<4x64xf32>, tensor<64x32xf32> -> tensor<4x32xf32>
  %sq = mirage_kernel.square %x : tensor<4x64xf32>
  %sum = mirage_kernel.reduction %sq dim 1 : tensor<4x64xf32> -> tensor<4x1xf32>
  %mean = mirage_kernel.mul_scalar %sum by 3.125000e-02 : tensor<4x1xf32>
  %rms = mirage_kernel.sqrt %mean : tensor<4x1xf32>
  %o = mirage_kernel.div %xw, %rms : tensor<4x32xf32>, tensor<4x1xf32> -> tensor<4x32xf32>
  return %o : tensor<4x32xf32>
}
