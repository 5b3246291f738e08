// RUN: mirage-opt %s --mirage-check-equivalence -verify-diagnostics -o /dev/null
// RUN: mirage-opt %s --mirage-check-equivalence='seed=987654321 trials=3' -verify-diagnostics -o /dev/null

// Equivalences at the edges of the semantics: composition of strided
// reductions, rms_norm over several trailing dims and its eps, constants
// (negative, huge, tiny, zero), returning an argument, and for-loop
// accumulators of loop-invariant tiles. X is 4x8x8.
//   o0 = reduction(X, dim 1, size 2)   o1 = rms_norm(X, 64)
//   o2 = rms_norm(X, 8, eps 1e-6)      o3 = neg(X)      o4 = X
//   o5 = 3 X       o6 = X - X          o7 = rms_norm(X, 8)

func.func @ref(%x: tensor<4x8x8xf32>)
    -> (tensor<4x2x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>) attributes {mirage.reference} {
  %o0 = mirage_kernel.reduction %x dim 1 size 2 : tensor<4x8x8xf32> -> tensor<4x2x8xf32>
  %o1 = mirage_kernel.rms_norm %x size 64 : tensor<4x8x8xf32>
  %o2 = mirage_kernel.rms_norm %x size 8 eps 1.0e-6 : tensor<4x8x8xf32>
  %o3 = mirage_kernel.neg %x : tensor<4x8x8xf32>
  %o5 = mirage_kernel.mul_scalar %x by 3.0 : tensor<4x8x8xf32>
  %o6 = mirage_kernel.sub %x, %x : tensor<4x8x8xf32>, tensor<4x8x8xf32> -> tensor<4x8x8xf32>
  %o7 = mirage_kernel.rms_norm %x size 8 : tensor<4x8x8xf32>
  return %o0, %o1, %o2, %o3, %x, %o5, %o6, %o7 : tensor<4x2x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>
}

// Strided reductions compose: reducing dim 1 to 4, then to 2, is
// reducing it to 2 (sum over c = j mod 4, then over j = i mod 2).
// expected-remark @below {{is equivalent to @ref}}
func.func @two_step_strided(%x: tensor<4x8x8xf32>)
    -> (tensor<4x2x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>) {
  %r4 = mirage_kernel.reduction %x dim 1 size 4 : tensor<4x8x8xf32> -> tensor<4x4x8xf32>
  %o0 = mirage_kernel.reduction %r4 dim 1 size 2 : tensor<4x4x8xf32> -> tensor<4x2x8xf32>
  %o1 = mirage_kernel.rms_norm %x size 64 : tensor<4x8x8xf32>
  %o2 = mirage_kernel.rms_norm %x size 8 eps 1.0e-6 : tensor<4x8x8xf32>
  %o3 = mirage_kernel.neg %x : tensor<4x8x8xf32>
  %o5 = mirage_kernel.mul_scalar %x by 3.0 : tensor<4x8x8xf32>
  %o6 = mirage_kernel.sub %x, %x : tensor<4x8x8xf32>, tensor<4x8x8xf32> -> tensor<4x8x8xf32>
  %o7 = mirage_kernel.rms_norm %x size 8 : tensor<4x8x8xf32>
  return %o0, %o1, %o2, %o3, %x, %o5, %o6, %o7 : tensor<4x2x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>
}

// rms_norm of size 64 normalizes over the last two dims (8x8) at once.
// expected-remark @below {{is equivalent to @ref}}
func.func @rms_norm_two_trailing_dims(%x: tensor<4x8x8xf32>)
    -> (tensor<4x2x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>) {
  %o0 = mirage_kernel.reduction %x dim 1 size 2 : tensor<4x8x8xf32> -> tensor<4x2x8xf32>
  %sq = mirage_kernel.square %x : tensor<4x8x8xf32>
  %s2 = mirage_kernel.reduction %sq dim 2 : tensor<4x8x8xf32> -> tensor<4x8x1xf32>
  %s1 = mirage_kernel.reduction %s2 dim 1 : tensor<4x8x1xf32> -> tensor<4x1x1xf32>
  %mean = mirage_kernel.mul_scalar %s1 by 1.562500e-02 : tensor<4x1x1xf32>
  %rms = mirage_kernel.sqrt %mean : tensor<4x1x1xf32>
  %o1 = mirage_kernel.div %x, %rms : tensor<4x8x8xf32>, tensor<4x1x1xf32> -> tensor<4x8x8xf32>
  %o2 = mirage_kernel.rms_norm %x size 8 eps 1.0e-6 : tensor<4x8x8xf32>
  %o3 = mirage_kernel.neg %x : tensor<4x8x8xf32>
  %o5 = mirage_kernel.mul_scalar %x by 3.0 : tensor<4x8x8xf32>
  %o6 = mirage_kernel.sub %x, %x : tensor<4x8x8xf32>, tensor<4x8x8xf32> -> tensor<4x8x8xf32>
  %o7 = mirage_kernel.rms_norm %x size 8 : tensor<4x8x8xf32>
  return %o0, %o1, %o2, %o3, %x, %o5, %o6, %o7 : tensor<4x2x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>
}

// eps is added to the mean of squares, under the sqrt: x / sqrt(mean + eps),
// with eps built as (x/x) * 1e-6.
// expected-remark @below {{is equivalent to @ref}}
func.func @explicit_eps(%x: tensor<4x8x8xf32>)
    -> (tensor<4x2x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>) {
  %o0 = mirage_kernel.reduction %x dim 1 size 2 : tensor<4x8x8xf32> -> tensor<4x2x8xf32>
  %o1 = mirage_kernel.rms_norm %x size 64 : tensor<4x8x8xf32>
  %sq = mirage_kernel.square %x : tensor<4x8x8xf32>
  %s2 = mirage_kernel.reduction %sq dim 2 : tensor<4x8x8xf32> -> tensor<4x8x1xf32>
  %mean = mirage_kernel.mul_scalar %s2 by 1.250000e-01 : tensor<4x8x1xf32>
  %xs = mirage_kernel.reduction %x dim 2 : tensor<4x8x8xf32> -> tensor<4x8x1xf32>
  %one = mirage_kernel.div %xs, %xs : tensor<4x8x1xf32>, tensor<4x8x1xf32> -> tensor<4x8x1xf32>
  %eps = mirage_kernel.mul_scalar %one by 1.0e-6 : tensor<4x8x1xf32>
  %me = mirage_kernel.add %mean, %eps : tensor<4x8x1xf32>, tensor<4x8x1xf32> -> tensor<4x8x1xf32>
  %rms = mirage_kernel.sqrt %me : tensor<4x8x1xf32>
  %o2 = mirage_kernel.div %x, %rms : tensor<4x8x8xf32>, tensor<4x8x1xf32> -> tensor<4x8x8xf32>
  %o3 = mirage_kernel.neg %x : tensor<4x8x8xf32>
  %o5 = mirage_kernel.mul_scalar %x by 3.0 : tensor<4x8x8xf32>
  %o6 = mirage_kernel.sub %x, %x : tensor<4x8x8xf32>, tensor<4x8x8xf32> -> tensor<4x8x8xf32>
  %o7 = mirage_kernel.rms_norm %x size 8 : tensor<4x8x8xf32>
  return %o0, %o1, %o2, %o3, %x, %o5, %o6, %o7 : tensor<4x2x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>
}

// neg(x) = -1 * x.
// expected-remark @below {{is equivalent to @ref}}
func.func @mul_scalar_minus_one(%x: tensor<4x8x8xf32>)
    -> (tensor<4x2x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>) {
  %o0 = mirage_kernel.reduction %x dim 1 size 2 : tensor<4x8x8xf32> -> tensor<4x2x8xf32>
  %o1 = mirage_kernel.rms_norm %x size 64 : tensor<4x8x8xf32>
  %o2 = mirage_kernel.rms_norm %x size 8 eps 1.0e-6 : tensor<4x8x8xf32>
  %o3 = mirage_kernel.mul_scalar %x by -1.0 : tensor<4x8x8xf32>
  %o5 = mirage_kernel.mul_scalar %x by 3.0 : tensor<4x8x8xf32>
  %o6 = mirage_kernel.sub %x, %x : tensor<4x8x8xf32>, tensor<4x8x8xf32> -> tensor<4x8x8xf32>
  %o7 = mirage_kernel.rms_norm %x size 8 : tensor<4x8x8xf32>
  return %o0, %o1, %o2, %o3, %x, %o5, %o6, %o7 : tensor<4x2x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>
}

// x = (x * 2^100) * 2^-100 (exact powers of two in f32).
// expected-remark @below {{is equivalent to @ref}}
func.func @huge_and_tiny_constants(%x: tensor<4x8x8xf32>)
    -> (tensor<4x2x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>) {
  %o0 = mirage_kernel.reduction %x dim 1 size 2 : tensor<4x8x8xf32> -> tensor<4x2x8xf32>
  %o1 = mirage_kernel.rms_norm %x size 64 : tensor<4x8x8xf32>
  %o2 = mirage_kernel.rms_norm %x size 8 eps 1.0e-6 : tensor<4x8x8xf32>
  %o3 = mirage_kernel.neg %x : tensor<4x8x8xf32>
  %big = mirage_kernel.mul_scalar %x by 0x71800000 : tensor<4x8x8xf32>
  %o4 = mirage_kernel.mul_scalar %big by 0x0D800000 : tensor<4x8x8xf32>
  %o5 = mirage_kernel.mul_scalar %x by 3.0 : tensor<4x8x8xf32>
  %o6 = mirage_kernel.sub %x, %x : tensor<4x8x8xf32>, tensor<4x8x8xf32> -> tensor<4x8x8xf32>
  %o7 = mirage_kernel.rms_norm %x size 8 : tensor<4x8x8xf32>
  return %o0, %o1, %o2, %o3, %o4, %o5, %o6, %o7 : tensor<4x2x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>
}

// 3x = x + (x + x).
// expected-remark @below {{is equivalent to @ref}}
func.func @three_x(%x: tensor<4x8x8xf32>)
    -> (tensor<4x2x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>) {
  %o0 = mirage_kernel.reduction %x dim 1 size 2 : tensor<4x8x8xf32> -> tensor<4x2x8xf32>
  %o1 = mirage_kernel.rms_norm %x size 64 : tensor<4x8x8xf32>
  %o2 = mirage_kernel.rms_norm %x size 8 eps 1.0e-6 : tensor<4x8x8xf32>
  %o3 = mirage_kernel.neg %x : tensor<4x8x8xf32>
  %xx = mirage_kernel.add %x, %x : tensor<4x8x8xf32>, tensor<4x8x8xf32> -> tensor<4x8x8xf32>
  %o5 = mirage_kernel.add %x, %xx : tensor<4x8x8xf32>, tensor<4x8x8xf32> -> tensor<4x8x8xf32>
  %o6 = mirage_kernel.sub %x, %x : tensor<4x8x8xf32>, tensor<4x8x8xf32> -> tensor<4x8x8xf32>
  %o7 = mirage_kernel.rms_norm %x size 8 : tensor<4x8x8xf32>
  return %o0, %o1, %o2, %o3, %x, %o5, %o6, %o7 : tensor<4x2x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>
}

// x - x = 0 * x.
// expected-remark @below {{is equivalent to @ref}}
func.func @zero(%x: tensor<4x8x8xf32>)
    -> (tensor<4x2x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>) {
  %o0 = mirage_kernel.reduction %x dim 1 size 2 : tensor<4x8x8xf32> -> tensor<4x2x8xf32>
  %o1 = mirage_kernel.rms_norm %x size 64 : tensor<4x8x8xf32>
  %o2 = mirage_kernel.rms_norm %x size 8 eps 1.0e-6 : tensor<4x8x8xf32>
  %o3 = mirage_kernel.neg %x : tensor<4x8x8xf32>
  %o5 = mirage_kernel.mul_scalar %x by 3.0 : tensor<4x8x8xf32>
  %o6 = mirage_kernel.mul_scalar %x by 0.0 : tensor<4x8x8xf32>
  %o7 = mirage_kernel.rms_norm %x size 8 : tensor<4x8x8xf32>
  return %o0, %o1, %o2, %o3, %x, %o5, %o6, %o7 : tensor<4x2x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>
}

// A loop-invariant tile (no fmap) accumulated over 3 iterations: 3x.
// expected-remark @below {{is equivalent to @ref}}
func.func @invariant_accumulated(%x: tensor<4x8x8xf32>)
    -> (tensor<4x2x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>) {
  %o0 = mirage_kernel.reduction %x dim 1 size 2 : tensor<4x8x8xf32> -> tensor<4x2x8xf32>
  %o1 = mirage_kernel.rms_norm %x size 64 : tensor<4x8x8xf32>
  %o2 = mirage_kernel.rms_norm %x size 8 eps 1.0e-6 : tensor<4x8x8xf32>
  %o3 = mirage_kernel.neg %x : tensor<4x8x8xf32>
  %o5 = mirage_kernel.graph_def(%X = %x : tensor<4x8x8xf32>) -> tensor<4x8x8xf32> grid [4, 1, 1] block [32, 1, 1] forloop 3 {
    %xt = input_loader %X imap <x = 0> : tensor<4x8x8xf32> -> !mirage_block.stensor<1x8x8xf32>
    %acc = forloop_accum %xt sum : !mirage_block.stensor<1x8x8xf32> -> !mirage_block.stensor<1x8x8xf32>
    %out = output_saver %acc omap <x = 0> : !mirage_block.stensor<1x8x8xf32> -> tensor<4x8x8xf32>
    yield %out : tensor<4x8x8xf32>
  }
  %o6 = mirage_kernel.sub %x, %x : tensor<4x8x8xf32>, tensor<4x8x8xf32> -> tensor<4x8x8xf32>
  %o7 = mirage_kernel.rms_norm %x size 8 : tensor<4x8x8xf32>
  return %o0, %o1, %o2, %o3, %x, %o5, %o6, %o7 : tensor<4x2x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>
}

// forloop_accum max over a single iteration is the value itself.
// expected-remark @below {{is equivalent to @ref}}
func.func @max_over_one_iteration(%x: tensor<4x8x8xf32>)
    -> (tensor<4x2x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>) {
  %o0 = mirage_kernel.reduction %x dim 1 size 2 : tensor<4x8x8xf32> -> tensor<4x2x8xf32>
  %o1 = mirage_kernel.rms_norm %x size 64 : tensor<4x8x8xf32>
  %o2 = mirage_kernel.rms_norm %x size 8 eps 1.0e-6 : tensor<4x8x8xf32>
  %o3 = mirage_kernel.graph_def(%X = %x : tensor<4x8x8xf32>) -> tensor<4x8x8xf32> grid [1, 2, 1] block [32, 1, 1] forloop 1 {
    %xt = input_loader %X imap <y = 1> : tensor<4x8x8xf32> -> !mirage_block.stensor<4x4x8xf32>
    %n = neg %xt : !mirage_block.stensor<4x4x8xf32>
    %acc = forloop_accum %n max : !mirage_block.stensor<4x4x8xf32> -> !mirage_block.stensor<4x4x8xf32>
    %out = output_saver %acc omap <y = 1> : !mirage_block.stensor<4x4x8xf32> -> tensor<4x8x8xf32>
    yield %out : tensor<4x8x8xf32>
  }
  %o5 = mirage_kernel.mul_scalar %x by 3.0 : tensor<4x8x8xf32>
  %o6 = mirage_kernel.sub %x, %x : tensor<4x8x8xf32>, tensor<4x8x8xf32> -> tensor<4x8x8xf32>
  %o7 = mirage_kernel.rms_norm %x size 8 : tensor<4x8x8xf32>
  return %o0, %o1, %o2, %o3, %x, %o5, %o6, %o7 : tensor<4x2x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>
}

// rms_last of a loop-invariant tile over 2 iterations: sum over the loop
// and the last dim of x^2, divided by 2 * 8, is the mean of x^2 over the
// row; dividing the (invariant) tile by it after the loop is rms_norm.
// expected-remark @below {{is equivalent to @ref}}
func.func @rms_last_of_invariant_tile(%x: tensor<4x8x8xf32>)
    -> (tensor<4x2x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>) {
  %o0 = mirage_kernel.reduction %x dim 1 size 2 : tensor<4x8x8xf32> -> tensor<4x2x8xf32>
  %o1 = mirage_kernel.rms_norm %x size 64 : tensor<4x8x8xf32>
  %o2 = mirage_kernel.rms_norm %x size 8 eps 1.0e-6 : tensor<4x8x8xf32>
  %o3 = mirage_kernel.neg %x : tensor<4x8x8xf32>
  %o5 = mirage_kernel.mul_scalar %x by 3.0 : tensor<4x8x8xf32>
  %o6 = mirage_kernel.sub %x, %x : tensor<4x8x8xf32>, tensor<4x8x8xf32> -> tensor<4x8x8xf32>
  %o7 = mirage_kernel.graph_def(%X = %x : tensor<4x8x8xf32>) -> tensor<4x8x8xf32> grid [4, 1, 1] block [32, 1, 1] forloop 2 {
    %xt = input_loader %X imap <x = 0> : tensor<4x8x8xf32> -> !mirage_block.stensor<1x8x8xf32>
    %rms = forloop_accum %xt rms_last : !mirage_block.stensor<1x8x8xf32> -> !mirage_block.stensor<1x8x1xf32>
    %y = div %xt, %rms : !mirage_block.stensor<1x8x8xf32>, !mirage_block.stensor<1x8x1xf32> -> !mirage_block.stensor<1x8x8xf32>
    %out = output_saver %y omap <x = 0> : !mirage_block.stensor<1x8x8xf32> -> tensor<4x8x8xf32>
    yield %out : tensor<4x8x8xf32>
  }
  return %o0, %o1, %o2, %o3, %x, %o5, %o6, %o7 : tensor<4x2x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>
}

// rms_last over 2 loop chunks of 4 columns (fmap 2) is the rms of the
// whole row of 8; the tile is reloaded whole (no fmap) for the division.
// expected-remark @below {{is equivalent to @ref}}
func.func @rms_last_over_loop_chunks(%x: tensor<4x8x8xf32>)
    -> (tensor<4x2x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>) {
  %o0 = mirage_kernel.reduction %x dim 1 size 2 : tensor<4x8x8xf32> -> tensor<4x2x8xf32>
  %o1 = mirage_kernel.rms_norm %x size 64 : tensor<4x8x8xf32>
  %o2 = mirage_kernel.rms_norm %x size 8 eps 1.0e-6 : tensor<4x8x8xf32>
  %o3 = mirage_kernel.neg %x : tensor<4x8x8xf32>
  %o5 = mirage_kernel.mul_scalar %x by 3.0 : tensor<4x8x8xf32>
  %o6 = mirage_kernel.sub %x, %x : tensor<4x8x8xf32>, tensor<4x8x8xf32> -> tensor<4x8x8xf32>
  %o7 = mirage_kernel.graph_def(%X = %x : tensor<4x8x8xf32>) -> tensor<4x8x8xf32> grid [2, 2, 1] block [32, 1, 1] forloop 2 {
    %xc = input_loader %X imap <x = 0, y = 1> fmap 2 : tensor<4x8x8xf32> -> !mirage_block.stensor<2x4x4xf32>
    %xt = input_loader %X imap <x = 0, y = 1> : tensor<4x8x8xf32> -> !mirage_block.stensor<2x4x8xf32>
    %rms = forloop_accum %xc rms_last : !mirage_block.stensor<2x4x4xf32> -> !mirage_block.stensor<2x4x1xf32>
    %y = div %xt, %rms : !mirage_block.stensor<2x4x8xf32>, !mirage_block.stensor<2x4x1xf32> -> !mirage_block.stensor<2x4x8xf32>
    %out = output_saver %y omap <x = 0, y = 1> : !mirage_block.stensor<2x4x8xf32> -> tensor<4x8x8xf32>
    yield %out : tensor<4x8x8xf32>
  }
  return %o0, %o1, %o2, %o3, %x, %o5, %o6, %o7 : tensor<4x2x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>
}

// Block-level rms_norm of size 64 on a 1x8x8 tile.
// expected-remark @below {{is equivalent to @ref}}
func.func @block_rms_norm_two_dims(%x: tensor<4x8x8xf32>)
    -> (tensor<4x2x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>) {
  %o0 = mirage_kernel.reduction %x dim 1 size 2 : tensor<4x8x8xf32> -> tensor<4x2x8xf32>
  %o1 = mirage_kernel.graph_def(%X = %x : tensor<4x8x8xf32>) -> tensor<4x8x8xf32> grid [4, 1, 1] block [32, 1, 1] forloop 1 {
    %xt = input_loader %X imap <x = 0> : tensor<4x8x8xf32> -> !mirage_block.stensor<1x8x8xf32>
    %n = rms_norm %xt size 64 : !mirage_block.stensor<1x8x8xf32>
    %out = output_saver %n omap <x = 0> : !mirage_block.stensor<1x8x8xf32> -> tensor<4x8x8xf32>
    yield %out : tensor<4x8x8xf32>
  }
  %o2 = mirage_kernel.rms_norm %x size 8 eps 1.0e-6 : tensor<4x8x8xf32>
  %o3 = mirage_kernel.neg %x : tensor<4x8x8xf32>
  %o5 = mirage_kernel.mul_scalar %x by 3.0 : tensor<4x8x8xf32>
  %o6 = mirage_kernel.sub %x, %x : tensor<4x8x8xf32>, tensor<4x8x8xf32> -> tensor<4x8x8xf32>
  %o7 = mirage_kernel.rms_norm %x size 8 : tensor<4x8x8xf32>
  return %o0, %o1, %o2, %o3, %x, %o5, %o6, %o7 : tensor<4x2x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>
}
