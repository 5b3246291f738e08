// RUN: mirage-opt %s --mirage-check-equivalence -verify-diagnostics -o /dev/null
// RUN: mirage-opt %s --mirage-check-equivalence='seed=987654321 trials=3' -verify-diagnostics -o /dev/null

// RMSNorm + Linear (examples/mugraphs/rmsnorm_linear_fused.mlir, small):
//   O = matmul(rms_norm(X, 64), W),   X 4x64, W 64x32.
// rms_norm is a per-row scale, so it commutes with the matmul:
//   O = matmul(X, W) / sqrt(mean(X^2)).

func.func @ref(%x: tensor<4x64xf32>, %w: tensor<64x32xf32>) -> tensor<4x32xf32> attributes {mirage.reference} {
  %n = mirage_kernel.rms_norm %x size 64 : tensor<4x64xf32>
  %o = mirage_kernel.matmul %n, %w : tensor<4x64xf32>, tensor<64x32xf32> -> tensor<4x32xf32>
  return %o : tensor<4x32xf32>
}

// Kernel level: the denominator moved after the matmul,
// div(matmul(X, W), sqrt(mean(X^2))) with mean = sum * 1/64.
// expected-remark @below {{is equivalent to @ref}}
func.func @denominator_after_matmul(%x: tensor<4x64xf32>, %w: tensor<64x32xf32>) -> tensor<4x32xf32> {
  %xw = mirage_kernel.matmul %x, %w : tensor<4x64xf32>, tensor<64x32xf32> -> tensor<4x32xf32>
  %sq = mirage_kernel.square %x : tensor<4x64xf32>
  %sum = mirage_kernel.reduction %sq dim 1 : tensor<4x64xf32> -> tensor<4x1xf32>
  %mean = mirage_kernel.mul_scalar %sum by 0.015625 : tensor<4x1xf32>
  %rms = mirage_kernel.sqrt %mean : tensor<4x1xf32>
  %o = mirage_kernel.div %xw, %rms : tensor<4x32xf32>, tensor<4x1xf32> -> tensor<4x32xf32>
  return %o : tensor<4x32xf32>
}

// Kernel level: X * rsqrt(mean(X^2)) before the matmul.
// expected-remark @below {{is equivalent to @ref}}
func.func @rsqrt_scale_before_matmul(%x: tensor<4x64xf32>, %w: tensor<64x32xf32>) -> tensor<4x32xf32> {
  %sq = mirage_kernel.square %x : tensor<4x64xf32>
  %sum = mirage_kernel.reduction %sq dim 1 : tensor<4x64xf32> -> tensor<4x1xf32>
  %mean = mirage_kernel.mul_scalar %sum by 0.015625 : tensor<4x1xf32>
  %inv = mirage_kernel.rsqrt %mean : tensor<4x1xf32>
  %n = mirage_kernel.mul %x, %inv : tensor<4x64xf32>, tensor<4x1xf32> -> tensor<4x64xf32>
  %o = mirage_kernel.matmul %n, %w : tensor<4x64xf32>, tensor<64x32xf32> -> tensor<4x32xf32>
  return %o : tensor<4x32xf32>
}

// The paper's single-kernel µGraph: grid x splits the 32 output columns into
// 4 x 8, the for-loop walks K in 4 chunks of 16; forloop_accum sum gives X·W,
// forloop_accum rms_last gives sqrt(sum x^2 / 64) per row; divide after the loop.
// expected-remark @below {{is equivalent to @ref}}
func.func @fused_rms_last(%x: tensor<4x64xf32>, %w: tensor<64x32xf32>) -> tensor<4x32xf32> {
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

// The same with a 2-D grid: x splits the output columns, y splits the rows.
// expected-remark @below {{is equivalent to @ref}}
func.func @fused_rms_last_2d_grid(%x: tensor<4x64xf32>, %w: tensor<64x32xf32>) -> tensor<4x32xf32> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<4x64xf32>, %W = %w : tensor<64x32xf32>)
      -> tensor<4x32xf32> grid [2, 2, 1] block [128, 1, 1] forloop 2 {
    %xt = input_loader %X imap <y = 0> fmap 1 : tensor<4x64xf32> -> !mirage_block.stensor<2x32xf32>
    %wt = input_loader %W imap <x = 1> fmap 0 : tensor<64x32xf32> -> !mirage_block.stensor<32x16xf32>
    %mm = matmul %xt, %wt : !mirage_block.stensor<2x32xf32>, !mirage_block.stensor<32x16xf32> -> !mirage_block.stensor<2x16xf32>
    %acc = forloop_accum %mm sum : !mirage_block.stensor<2x16xf32> -> !mirage_block.stensor<2x16xf32>
    %rms = forloop_accum %xt rms_last : !mirage_block.stensor<2x32xf32> -> !mirage_block.stensor<2x1xf32>
    %y = div %acc, %rms : !mirage_block.stensor<2x16xf32>, !mirage_block.stensor<2x1xf32> -> !mirage_block.stensor<2x16xf32>
    %out = output_saver %y omap <x = 1, y = 0> : !mirage_block.stensor<2x16xf32> -> tensor<4x32xf32>
    yield %out : tensor<4x32xf32>
  }
  return %o : tensor<4x32xf32>
}

// No for-loop: each block loads whole rows of X and applies the block-level
// rms_norm before its matmul.
// expected-remark @below {{is equivalent to @ref}}
func.func @block_rms_norm_no_loop(%x: tensor<4x64xf32>, %w: tensor<64x32xf32>) -> tensor<4x32xf32> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<4x64xf32>, %W = %w : tensor<64x32xf32>)
      -> tensor<4x32xf32> grid [2, 1, 1] block [128, 1, 1] forloop 1 {
    %xt = input_loader %X imap <> : tensor<4x64xf32> -> !mirage_block.stensor<4x64xf32>
    %wt = input_loader %W imap <x = 1> : tensor<64x32xf32> -> !mirage_block.stensor<64x16xf32>
    %n = rms_norm %xt size 64 : !mirage_block.stensor<4x64xf32>
    %mm = matmul %n, %wt : !mirage_block.stensor<4x64xf32>, !mirage_block.stensor<64x16xf32> -> !mirage_block.stensor<4x16xf32>
    %out = output_saver %mm omap <x = 1> : !mirage_block.stensor<4x16xf32> -> tensor<4x32xf32>
    yield %out : tensor<4x32xf32>
  }
  return %o : tensor<4x32xf32>
}

// The denominator as a sum_last of squares over the loop, then mean and sqrt
// after it (no rms_last).
// expected-remark @below {{is equivalent to @ref}}
func.func @fused_sum_last_of_squares(%x: tensor<4x64xf32>, %w: tensor<64x32xf32>) -> tensor<4x32xf32> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<4x64xf32>, %W = %w : tensor<64x32xf32>)
      -> tensor<4x32xf32> grid [4, 1, 1] block [128, 1, 1] forloop 4 {
    %xt = input_loader %X imap <> fmap 1 : tensor<4x64xf32> -> !mirage_block.stensor<4x16xf32>
    %wt = input_loader %W imap <x = 1> fmap 0 : tensor<64x32xf32> -> !mirage_block.stensor<16x8xf32>
    %mm = matmul %xt, %wt : !mirage_block.stensor<4x16xf32>, !mirage_block.stensor<16x8xf32> -> !mirage_block.stensor<4x8xf32>
    %acc = forloop_accum %mm sum : !mirage_block.stensor<4x8xf32> -> !mirage_block.stensor<4x8xf32>
    %sq = square %xt : !mirage_block.stensor<4x16xf32>
    %ss = forloop_accum %sq sum_last : !mirage_block.stensor<4x16xf32> -> !mirage_block.stensor<4x1xf32>
    %mean = mul_scalar %ss by 0.015625 : !mirage_block.stensor<4x1xf32>
    %rms = sqrt %mean : !mirage_block.stensor<4x1xf32>
    %y = div %acc, %rms : !mirage_block.stensor<4x8xf32>, !mirage_block.stensor<4x1xf32> -> !mirage_block.stensor<4x8xf32>
    %out = output_saver %y omap <x = 1> : !mirage_block.stensor<4x8xf32> -> tensor<4x32xf32>
    yield %out : tensor<4x32xf32>
  }
  return %o : tensor<4x32xf32>
}
