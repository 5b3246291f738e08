// RUN: mirage-opt %s --mirage-check-equivalence -verify-diagnostics -o /dev/null
// RUN: mirage-opt %s --mirage-check-equivalence='seed=987654321 trials=3' -verify-diagnostics -o /dev/null
// RUN: not mirage-opt %s --mirage-check-equivalence -o /dev/null 2>/dev/null

// Single-mistake mutants of the edge cases of equivalent-edge-cases.mlir
// (X 4x8x8):
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

// eps added to the sum of squares before the mean: sqrt((sum + eps) / 8).
// expected-error @below {{is not equivalent to @ref: output 2 differs}}
func.func @eps_added_to_sum(%x: tensor<4x8x8xf32>)
    -> (tensor<4x2x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>) {
  %o0 = mirage_kernel.reduction %x dim 1 size 2 : tensor<4x8x8xf32> -> tensor<4x2x8xf32>
  %o1 = mirage_kernel.rms_norm %x size 64 : tensor<4x8x8xf32>
  %sq = mirage_kernel.square %x : tensor<4x8x8xf32>
  %s2 = mirage_kernel.reduction %sq dim 2 : tensor<4x8x8xf32> -> tensor<4x8x1xf32>
  %xs = mirage_kernel.reduction %x dim 2 : tensor<4x8x8xf32> -> tensor<4x8x1xf32>
  %one = mirage_kernel.div %xs, %xs : tensor<4x8x1xf32>, tensor<4x8x1xf32> -> tensor<4x8x1xf32>
  %eps = mirage_kernel.mul_scalar %one by 1.0e-6 : tensor<4x8x1xf32>
  %se = mirage_kernel.add %s2, %eps : tensor<4x8x1xf32>, tensor<4x8x1xf32> -> tensor<4x8x1xf32>
  %me = mirage_kernel.mul_scalar %se by 1.250000e-01 : tensor<4x8x1xf32>
  %rms = mirage_kernel.sqrt %me : tensor<4x8x1xf32>
  %o2 = mirage_kernel.div %x, %rms : tensor<4x8x8xf32>, tensor<4x8x1xf32> -> tensor<4x8x8xf32>
  %o3 = mirage_kernel.neg %x : tensor<4x8x8xf32>
  %o5 = mirage_kernel.mul_scalar %x by 3.0 : tensor<4x8x8xf32>
  %o6 = mirage_kernel.sub %x, %x : tensor<4x8x8xf32>, tensor<4x8x8xf32> -> tensor<4x8x8xf32>
  %o7 = mirage_kernel.rms_norm %x size 8 : tensor<4x8x8xf32>
  return %o0, %o1, %o2, %o3, %x, %o5, %o6, %o7 : tensor<4x2x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>
}

// eps added after the sqrt: sqrt(mean) + eps.
// expected-error @below {{is not equivalent to @ref: output 2 differs}}
func.func @eps_added_after_sqrt(%x: tensor<4x8x8xf32>)
    -> (tensor<4x2x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>) {
  %o0 = mirage_kernel.reduction %x dim 1 size 2 : tensor<4x8x8xf32> -> tensor<4x2x8xf32>
  %o1 = mirage_kernel.rms_norm %x size 64 : tensor<4x8x8xf32>
  %sq = mirage_kernel.square %x : tensor<4x8x8xf32>
  %s2 = mirage_kernel.reduction %sq dim 2 : tensor<4x8x8xf32> -> tensor<4x8x1xf32>
  %mean = mirage_kernel.mul_scalar %s2 by 1.250000e-01 : tensor<4x8x1xf32>
  %xs = mirage_kernel.reduction %x dim 2 : tensor<4x8x8xf32> -> tensor<4x8x1xf32>
  %one = mirage_kernel.div %xs, %xs : tensor<4x8x1xf32>, tensor<4x8x1xf32> -> tensor<4x8x1xf32>
  %eps = mirage_kernel.mul_scalar %one by 1.0e-6 : tensor<4x8x1xf32>
  %sm = mirage_kernel.sqrt %mean : tensor<4x8x1xf32>
  %rms = mirage_kernel.add %sm, %eps : tensor<4x8x1xf32>, tensor<4x8x1xf32> -> tensor<4x8x1xf32>
  %o2 = mirage_kernel.div %x, %rms : tensor<4x8x8xf32>, tensor<4x8x1xf32> -> tensor<4x8x8xf32>
  %o3 = mirage_kernel.neg %x : tensor<4x8x8xf32>
  %o5 = mirage_kernel.mul_scalar %x by 3.0 : tensor<4x8x8xf32>
  %o6 = mirage_kernel.sub %x, %x : tensor<4x8x8xf32>, tensor<4x8x8xf32> -> tensor<4x8x8xf32>
  %o7 = mirage_kernel.rms_norm %x size 8 : tensor<4x8x8xf32>
  return %o0, %o1, %o2, %o3, %x, %o5, %o6, %o7 : tensor<4x2x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>
}

// eps 1e-5 instead of 1e-6.
// expected-error @below {{is not equivalent to @ref: output 2 differs}}
func.func @eps_1e_5(%x: tensor<4x8x8xf32>)
    -> (tensor<4x2x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>) {
  %o0 = mirage_kernel.reduction %x dim 1 size 2 : tensor<4x8x8xf32> -> tensor<4x2x8xf32>
  %o1 = mirage_kernel.rms_norm %x size 64 : tensor<4x8x8xf32>
  %sq = mirage_kernel.square %x : tensor<4x8x8xf32>
  %s2 = mirage_kernel.reduction %sq dim 2 : tensor<4x8x8xf32> -> tensor<4x8x1xf32>
  %mean = mirage_kernel.mul_scalar %s2 by 1.250000e-01 : tensor<4x8x1xf32>
  %xs = mirage_kernel.reduction %x dim 2 : tensor<4x8x8xf32> -> tensor<4x8x1xf32>
  %one = mirage_kernel.div %xs, %xs : tensor<4x8x1xf32>, tensor<4x8x1xf32> -> tensor<4x8x1xf32>
  %eps = mirage_kernel.mul_scalar %one by 1.0e-5 : tensor<4x8x1xf32>
  %me = mirage_kernel.add %mean, %eps : tensor<4x8x1xf32>, tensor<4x8x1xf32> -> tensor<4x8x1xf32>
  %rms = mirage_kernel.sqrt %me : tensor<4x8x1xf32>
  %o2 = mirage_kernel.div %x, %rms : tensor<4x8x8xf32>, tensor<4x8x1xf32> -> tensor<4x8x8xf32>
  %o3 = mirage_kernel.neg %x : tensor<4x8x8xf32>
  %o5 = mirage_kernel.mul_scalar %x by 3.0 : tensor<4x8x8xf32>
  %o6 = mirage_kernel.sub %x, %x : tensor<4x8x8xf32>, tensor<4x8x8xf32> -> tensor<4x8x8xf32>
  %o7 = mirage_kernel.rms_norm %x size 8 : tensor<4x8x8xf32>
  return %o0, %o1, %o2, %o3, %x, %o5, %o6, %o7 : tensor<4x2x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>
}

// Normalizes each row of 8 (reduction of dim 2 only) instead of each 8x8
// matrix, with the 1/64 of the two-dim version.
// expected-error @below {{is not equivalent to @ref: output 1 differs}}
func.func @norm_over_last_dim_only(%x: tensor<4x8x8xf32>)
    -> (tensor<4x2x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>) {
  %o0 = mirage_kernel.reduction %x dim 1 size 2 : tensor<4x8x8xf32> -> tensor<4x2x8xf32>
  %sq = mirage_kernel.square %x : tensor<4x8x8xf32>
  %s2 = mirage_kernel.reduction %sq dim 2 : tensor<4x8x8xf32> -> tensor<4x8x1xf32>
  %mean = mirage_kernel.mul_scalar %s2 by 1.562500e-02 : tensor<4x8x1xf32>
  %rms = mirage_kernel.sqrt %mean : tensor<4x8x1xf32>
  %o1 = mirage_kernel.div %x, %rms : tensor<4x8x8xf32>, tensor<4x8x1xf32> -> tensor<4x8x8xf32>
  %o2 = mirage_kernel.rms_norm %x size 8 eps 1.0e-6 : tensor<4x8x8xf32>
  %o3 = mirage_kernel.neg %x : tensor<4x8x8xf32>
  %o5 = mirage_kernel.mul_scalar %x by 3.0 : tensor<4x8x8xf32>
  %o6 = mirage_kernel.sub %x, %x : tensor<4x8x8xf32>, tensor<4x8x8xf32> -> tensor<4x8x8xf32>
  %o7 = mirage_kernel.rms_norm %x size 8 : tensor<4x8x8xf32>
  return %o0, %o1, %o2, %o3, %x, %o5, %o6, %o7 : tensor<4x2x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>
}

// Reduce to 4, then keep the first half (chunk) instead of reducing to 2.
// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @reduce_then_chunk(%x: tensor<4x8x8xf32>)
    -> (tensor<4x2x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>) {
  %r4 = mirage_kernel.reduction %x dim 1 size 4 : tensor<4x8x8xf32> -> tensor<4x4x8xf32>
  %o0, %unused = mirage_kernel.chunk %r4 dim 1 parts 2 : tensor<4x4x8xf32> -> tensor<4x2x8xf32>, tensor<4x2x8xf32>
  %o1 = mirage_kernel.rms_norm %x size 64 : tensor<4x8x8xf32>
  %o2 = mirage_kernel.rms_norm %x size 8 eps 1.0e-6 : tensor<4x8x8xf32>
  %o3 = mirage_kernel.neg %x : tensor<4x8x8xf32>
  %o5 = mirage_kernel.mul_scalar %x by 3.0 : tensor<4x8x8xf32>
  %o6 = mirage_kernel.sub %x, %x : tensor<4x8x8xf32>, tensor<4x8x8xf32> -> tensor<4x8x8xf32>
  %o7 = mirage_kernel.rms_norm %x size 8 : tensor<4x8x8xf32>
  return %o0, %o1, %o2, %o3, %x, %o5, %o6, %o7 : tensor<4x2x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>
}

// mul_scalar by 1.0 instead of -1.0 for neg.
// expected-error @below {{is not equivalent to @ref: output 3 differs}}
func.func @mul_scalar_plus_one(%x: tensor<4x8x8xf32>)
    -> (tensor<4x2x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>) {
  %o0 = mirage_kernel.reduction %x dim 1 size 2 : tensor<4x8x8xf32> -> tensor<4x2x8xf32>
  %o1 = mirage_kernel.rms_norm %x size 64 : tensor<4x8x8xf32>
  %o2 = mirage_kernel.rms_norm %x size 8 eps 1.0e-6 : tensor<4x8x8xf32>
  %o3 = mirage_kernel.mul_scalar %x by 1.0 : tensor<4x8x8xf32>
  %o5 = mirage_kernel.mul_scalar %x by 3.0 : tensor<4x8x8xf32>
  %o6 = mirage_kernel.sub %x, %x : tensor<4x8x8xf32>, tensor<4x8x8xf32> -> tensor<4x8x8xf32>
  %o7 = mirage_kernel.rms_norm %x size 8 : tensor<4x8x8xf32>
  return %o0, %o1, %o2, %o3, %x, %o5, %o6, %o7 : tensor<4x2x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>
}

// (x * 2^100) * 2^-99 = 2x instead of x.
// expected-error @below {{is not equivalent to @ref: output 4 differs}}
func.func @constants_off_by_factor_2(%x: tensor<4x8x8xf32>)
    -> (tensor<4x2x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>) {
  %o0 = mirage_kernel.reduction %x dim 1 size 2 : tensor<4x8x8xf32> -> tensor<4x2x8xf32>
  %o1 = mirage_kernel.rms_norm %x size 64 : tensor<4x8x8xf32>
  %o2 = mirage_kernel.rms_norm %x size 8 eps 1.0e-6 : tensor<4x8x8xf32>
  %o3 = mirage_kernel.neg %x : tensor<4x8x8xf32>
  %big = mirage_kernel.mul_scalar %x by 0x71800000 : tensor<4x8x8xf32>
  %o4 = mirage_kernel.mul_scalar %big by 0x0E000000 : tensor<4x8x8xf32>
  %o5 = mirage_kernel.mul_scalar %x by 3.0 : tensor<4x8x8xf32>
  %o6 = mirage_kernel.sub %x, %x : tensor<4x8x8xf32>, tensor<4x8x8xf32> -> tensor<4x8x8xf32>
  %o7 = mirage_kernel.rms_norm %x size 8 : tensor<4x8x8xf32>
  return %o0, %o1, %o2, %o3, %o4, %o5, %o6, %o7 : tensor<4x2x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>
}

// A loop-invariant tile accumulated over 2 iterations (2x) instead of 3.
// expected-error @below {{is not equivalent to @ref: output 5 differs}}
func.func @invariant_accumulated_off_by_one(%x: tensor<4x8x8xf32>)
    -> (tensor<4x2x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>) {
  %o0 = mirage_kernel.reduction %x dim 1 size 2 : tensor<4x8x8xf32> -> tensor<4x2x8xf32>
  %o1 = mirage_kernel.rms_norm %x size 64 : tensor<4x8x8xf32>
  %o2 = mirage_kernel.rms_norm %x size 8 eps 1.0e-6 : tensor<4x8x8xf32>
  %o3 = mirage_kernel.neg %x : tensor<4x8x8xf32>
  %o5 = mirage_kernel.graph_def(%X = %x : tensor<4x8x8xf32>) -> tensor<4x8x8xf32> grid [4, 1, 1] block [32, 1, 1] forloop 2 {
    %xt = input_loader %X imap <x = 0> : tensor<4x8x8xf32> -> !mirage_block.stensor<1x8x8xf32>
    %acc = forloop_accum %xt sum : !mirage_block.stensor<1x8x8xf32> -> !mirage_block.stensor<1x8x8xf32>
    %out = output_saver %acc omap <x = 0> : !mirage_block.stensor<1x8x8xf32> -> tensor<4x8x8xf32>
    yield %out : tensor<4x8x8xf32>
  }
  %o6 = mirage_kernel.sub %x, %x : tensor<4x8x8xf32>, tensor<4x8x8xf32> -> tensor<4x8x8xf32>
  %o7 = mirage_kernel.rms_norm %x size 8 : tensor<4x8x8xf32>
  return %o0, %o1, %o2, %o3, %x, %o5, %o6, %o7 : tensor<4x2x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>
}

// rms_last of x^2 instead of x (a stray square).
// expected-error @below {{is not equivalent to @ref: output 7 differs}}
func.func @rms_last_of_square(%x: tensor<4x8x8xf32>)
    -> (tensor<4x2x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>) {
  %o0 = mirage_kernel.reduction %x dim 1 size 2 : tensor<4x8x8xf32> -> tensor<4x2x8xf32>
  %o1 = mirage_kernel.rms_norm %x size 64 : tensor<4x8x8xf32>
  %o2 = mirage_kernel.rms_norm %x size 8 eps 1.0e-6 : tensor<4x8x8xf32>
  %o3 = mirage_kernel.neg %x : tensor<4x8x8xf32>
  %o5 = mirage_kernel.mul_scalar %x by 3.0 : tensor<4x8x8xf32>
  %o6 = mirage_kernel.sub %x, %x : tensor<4x8x8xf32>, tensor<4x8x8xf32> -> tensor<4x8x8xf32>
  %o7 = mirage_kernel.graph_def(%X = %x : tensor<4x8x8xf32>) -> tensor<4x8x8xf32> grid [4, 1, 1] block [32, 1, 1] forloop 2 {
    %xt = input_loader %X imap <x = 0> : tensor<4x8x8xf32> -> !mirage_block.stensor<1x8x8xf32>
    %sq = square %xt : !mirage_block.stensor<1x8x8xf32>
    %rms = forloop_accum %sq rms_last : !mirage_block.stensor<1x8x8xf32> -> !mirage_block.stensor<1x8x1xf32>
    %y = div %xt, %rms : !mirage_block.stensor<1x8x8xf32>, !mirage_block.stensor<1x8x1xf32> -> !mirage_block.stensor<1x8x8xf32>
    %out = output_saver %y omap <x = 0> : !mirage_block.stensor<1x8x8xf32> -> tensor<4x8x8xf32>
    yield %out : tensor<4x8x8xf32>
  }
  return %o0, %o1, %o2, %o3, %x, %o5, %o6, %o7 : tensor<4x2x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>
}
