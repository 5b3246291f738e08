// RUN: mirage-opt %s --mirage-check-equivalence -verify-diagnostics -o /dev/null
// RUN: mirage-opt %s --mirage-check-equivalence='seed=987654321 trials=3' -verify-diagnostics -o /dev/null
// RUN: not mirage-opt %s --mirage-check-equivalence -o /dev/null 2>/dev/null

// Single-mistake mutants of kernel ops with structure: reductions, concat,
// chunk, rms_norm, pow. Each mutant changes the computation of one output.
//   o0 = a / rowsum(a)            o1 = concat(a, b, dim 1)
//   o2 = rms_norm(a, 8), eps 0    o3 = rowsum(exp(a))
//   o4 = reduction(a, dim 1, size 2) (strided: even and odd columns)
//   o5 = chunk(b, dim 0, 2)#0     o6 = pow(a, b)

func.func @ref(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>)
    -> (tensor<8x8xf32>, tensor<8x16xf32>, tensor<8x8xf32>, tensor<8x1xf32>, tensor<8x2xf32>, tensor<4x8xf32>, tensor<8x8xf32>) attributes {mirage.reference} {
  %r0 = mirage_kernel.reduction %a dim 1 : tensor<8x8xf32> -> tensor<8x1xf32>
  %o0 = mirage_kernel.div %a, %r0 : tensor<8x8xf32>, tensor<8x1xf32> -> tensor<8x8xf32>
  %o1 = mirage_kernel.concat %a, %b dim 1 : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x16xf32>
  %o2 = mirage_kernel.rms_norm %a size 8 : tensor<8x8xf32>
  %e3 = mirage_kernel.exp %a : tensor<8x8xf32>
  %o3 = mirage_kernel.reduction %e3 dim 1 : tensor<8x8xf32> -> tensor<8x1xf32>
  %o4 = mirage_kernel.reduction %a dim 1 size 2 : tensor<8x8xf32> -> tensor<8x2xf32>
  %o5, %h5 = mirage_kernel.chunk %b dim 0 parts 2 : tensor<8x8xf32> -> tensor<4x8xf32>, tensor<4x8xf32>
  %o6 = mirage_kernel.pow %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  return %o0, %o1, %o2, %o3, %o4, %o5, %o6 : tensor<8x8xf32>, tensor<8x16xf32>, tensor<8x8xf32>, tensor<8x1xf32>, tensor<8x2xf32>, tensor<4x8xf32>, tensor<8x8xf32>
}

// a / (column sums) instead of a / (row sums): reduction over dim 0
// (8x1 vs 1x8, both broadcast to 8x8).
// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @wrong_reduction_dim(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>)
    -> (tensor<8x8xf32>, tensor<8x16xf32>, tensor<8x8xf32>, tensor<8x1xf32>, tensor<8x2xf32>, tensor<4x8xf32>, tensor<8x8xf32>) {
  %r0 = mirage_kernel.reduction %a dim 0 : tensor<8x8xf32> -> tensor<1x8xf32>
  %o0 = mirage_kernel.div %a, %r0 : tensor<8x8xf32>, tensor<1x8xf32> -> tensor<8x8xf32>
  %o1 = mirage_kernel.concat %a, %b dim 1 : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x16xf32>
  %o2 = mirage_kernel.rms_norm %a size 8 : tensor<8x8xf32>
  %e3 = mirage_kernel.exp %a : tensor<8x8xf32>
  %o3 = mirage_kernel.reduction %e3 dim 1 : tensor<8x8xf32> -> tensor<8x1xf32>
  %o4 = mirage_kernel.reduction %a dim 1 size 2 : tensor<8x8xf32> -> tensor<8x2xf32>
  %o5, %h5 = mirage_kernel.chunk %b dim 0 parts 2 : tensor<8x8xf32> -> tensor<4x8xf32>, tensor<4x8xf32>
  %o6 = mirage_kernel.pow %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  return %o0, %o1, %o2, %o3, %o4, %o5, %o6 : tensor<8x8xf32>, tensor<8x16xf32>, tensor<8x8xf32>, tensor<8x1xf32>, tensor<8x2xf32>, tensor<4x8xf32>, tensor<8x8xf32>
}

// (row sums) / a instead of a / (row sums).
// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @swapped_broadcast_div(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>)
    -> (tensor<8x8xf32>, tensor<8x16xf32>, tensor<8x8xf32>, tensor<8x1xf32>, tensor<8x2xf32>, tensor<4x8xf32>, tensor<8x8xf32>) {
  %r0 = mirage_kernel.reduction %a dim 1 : tensor<8x8xf32> -> tensor<8x1xf32>
  %o0 = mirage_kernel.div %r0, %a : tensor<8x1xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o1 = mirage_kernel.concat %a, %b dim 1 : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x16xf32>
  %o2 = mirage_kernel.rms_norm %a size 8 : tensor<8x8xf32>
  %e3 = mirage_kernel.exp %a : tensor<8x8xf32>
  %o3 = mirage_kernel.reduction %e3 dim 1 : tensor<8x8xf32> -> tensor<8x1xf32>
  %o4 = mirage_kernel.reduction %a dim 1 size 2 : tensor<8x8xf32> -> tensor<8x2xf32>
  %o5, %h5 = mirage_kernel.chunk %b dim 0 parts 2 : tensor<8x8xf32> -> tensor<4x8xf32>, tensor<4x8xf32>
  %o6 = mirage_kernel.pow %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  return %o0, %o1, %o2, %o3, %o4, %o5, %o6 : tensor<8x8xf32>, tensor<8x16xf32>, tensor<8x8xf32>, tensor<8x1xf32>, tensor<8x2xf32>, tensor<4x8xf32>, tensor<8x8xf32>
}

// concat(b, a) instead of concat(a, b).
// expected-error @below {{is not equivalent to @ref: output 1 differs}}
func.func @wrong_concat_order(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>)
    -> (tensor<8x8xf32>, tensor<8x16xf32>, tensor<8x8xf32>, tensor<8x1xf32>, tensor<8x2xf32>, tensor<4x8xf32>, tensor<8x8xf32>) {
  %r0 = mirage_kernel.reduction %a dim 1 : tensor<8x8xf32> -> tensor<8x1xf32>
  %o0 = mirage_kernel.div %a, %r0 : tensor<8x8xf32>, tensor<8x1xf32> -> tensor<8x8xf32>
  %o1 = mirage_kernel.concat %b, %a dim 1 : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x16xf32>
  %o2 = mirage_kernel.rms_norm %a size 8 : tensor<8x8xf32>
  %e3 = mirage_kernel.exp %a : tensor<8x8xf32>
  %o3 = mirage_kernel.reduction %e3 dim 1 : tensor<8x8xf32> -> tensor<8x1xf32>
  %o4 = mirage_kernel.reduction %a dim 1 size 2 : tensor<8x8xf32> -> tensor<8x2xf32>
  %o5, %h5 = mirage_kernel.chunk %b dim 0 parts 2 : tensor<8x8xf32> -> tensor<4x8xf32>, tensor<4x8xf32>
  %o6 = mirage_kernel.pow %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  return %o0, %o1, %o2, %o3, %o4, %o5, %o6 : tensor<8x8xf32>, tensor<8x16xf32>, tensor<8x8xf32>, tensor<8x1xf32>, tensor<8x2xf32>, tensor<4x8xf32>, tensor<8x8xf32>
}

// rms_norm with eps 1e-6 instead of 0: a different function.
// expected-error @below {{is not equivalent to @ref: output 2 differs}}
func.func @rms_norm_eps(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>)
    -> (tensor<8x8xf32>, tensor<8x16xf32>, tensor<8x8xf32>, tensor<8x1xf32>, tensor<8x2xf32>, tensor<4x8xf32>, tensor<8x8xf32>) {
  %r0 = mirage_kernel.reduction %a dim 1 : tensor<8x8xf32> -> tensor<8x1xf32>
  %o0 = mirage_kernel.div %a, %r0 : tensor<8x8xf32>, tensor<8x1xf32> -> tensor<8x8xf32>
  %o1 = mirage_kernel.concat %a, %b dim 1 : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x16xf32>
  %o2 = mirage_kernel.rms_norm %a size 8 eps 1.0e-6 : tensor<8x8xf32>
  %e3 = mirage_kernel.exp %a : tensor<8x8xf32>
  %o3 = mirage_kernel.reduction %e3 dim 1 : tensor<8x8xf32> -> tensor<8x1xf32>
  %o4 = mirage_kernel.reduction %a dim 1 size 2 : tensor<8x8xf32> -> tensor<8x2xf32>
  %o5, %h5 = mirage_kernel.chunk %b dim 0 parts 2 : tensor<8x8xf32> -> tensor<4x8xf32>, tensor<4x8xf32>
  %o6 = mirage_kernel.pow %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  return %o0, %o1, %o2, %o3, %o4, %o5, %o6 : tensor<8x8xf32>, tensor<8x16xf32>, tensor<8x8xf32>, tensor<8x1xf32>, tensor<8x2xf32>, tensor<4x8xf32>, tensor<8x8xf32>
}

// rms_norm over all 64 elements instead of each row of 8.
// expected-error @below {{is not equivalent to @ref: output 2 differs}}
func.func @rms_norm_whole_tensor(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>)
    -> (tensor<8x8xf32>, tensor<8x16xf32>, tensor<8x8xf32>, tensor<8x1xf32>, tensor<8x2xf32>, tensor<4x8xf32>, tensor<8x8xf32>) {
  %r0 = mirage_kernel.reduction %a dim 1 : tensor<8x8xf32> -> tensor<8x1xf32>
  %o0 = mirage_kernel.div %a, %r0 : tensor<8x8xf32>, tensor<8x1xf32> -> tensor<8x8xf32>
  %o1 = mirage_kernel.concat %a, %b dim 1 : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x16xf32>
  %o2 = mirage_kernel.rms_norm %a size 64 : tensor<8x8xf32>
  %e3 = mirage_kernel.exp %a : tensor<8x8xf32>
  %o3 = mirage_kernel.reduction %e3 dim 1 : tensor<8x8xf32> -> tensor<8x1xf32>
  %o4 = mirage_kernel.reduction %a dim 1 size 2 : tensor<8x8xf32> -> tensor<8x2xf32>
  %o5, %h5 = mirage_kernel.chunk %b dim 0 parts 2 : tensor<8x8xf32> -> tensor<4x8xf32>, tensor<4x8xf32>
  %o6 = mirage_kernel.pow %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  return %o0, %o1, %o2, %o3, %o4, %o5, %o6 : tensor<8x8xf32>, tensor<8x16xf32>, tensor<8x8xf32>, tensor<8x1xf32>, tensor<8x2xf32>, tensor<4x8xf32>, tensor<8x8xf32>
}

// x / sqrt(sum x^2): the 1/8 of the mean forgotten.
// expected-error @below {{is not equivalent to @ref: output 2 differs}}
func.func @rms_norm_without_mean(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>)
    -> (tensor<8x8xf32>, tensor<8x16xf32>, tensor<8x8xf32>, tensor<8x1xf32>, tensor<8x2xf32>, tensor<4x8xf32>, tensor<8x8xf32>) {
  %r0 = mirage_kernel.reduction %a dim 1 : tensor<8x8xf32> -> tensor<8x1xf32>
  %o0 = mirage_kernel.div %a, %r0 : tensor<8x8xf32>, tensor<8x1xf32> -> tensor<8x8xf32>
  %o1 = mirage_kernel.concat %a, %b dim 1 : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x16xf32>
  %sq = mirage_kernel.square %a : tensor<8x8xf32>
  %ss = mirage_kernel.reduction %sq dim 1 : tensor<8x8xf32> -> tensor<8x1xf32>
  %rt = mirage_kernel.sqrt %ss : tensor<8x1xf32>
  %o2 = mirage_kernel.div %a, %rt : tensor<8x8xf32>, tensor<8x1xf32> -> tensor<8x8xf32>
  %e3 = mirage_kernel.exp %a : tensor<8x8xf32>
  %o3 = mirage_kernel.reduction %e3 dim 1 : tensor<8x8xf32> -> tensor<8x1xf32>
  %o4 = mirage_kernel.reduction %a dim 1 size 2 : tensor<8x8xf32> -> tensor<8x2xf32>
  %o5, %h5 = mirage_kernel.chunk %b dim 0 parts 2 : tensor<8x8xf32> -> tensor<4x8xf32>, tensor<4x8xf32>
  %o6 = mirage_kernel.pow %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  return %o0, %o1, %o2, %o3, %o4, %o5, %o6 : tensor<8x8xf32>, tensor<8x16xf32>, tensor<8x8xf32>, tensor<8x1xf32>, tensor<8x2xf32>, tensor<4x8xf32>, tensor<8x8xf32>
}

// x / sqrt(mean(x)): the square forgotten.
// expected-error @below {{is not equivalent to @ref: output 2 differs}}
func.func @rms_norm_without_square(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>)
    -> (tensor<8x8xf32>, tensor<8x16xf32>, tensor<8x8xf32>, tensor<8x1xf32>, tensor<8x2xf32>, tensor<4x8xf32>, tensor<8x8xf32>) {
  %r0 = mirage_kernel.reduction %a dim 1 : tensor<8x8xf32> -> tensor<8x1xf32>
  %o0 = mirage_kernel.div %a, %r0 : tensor<8x8xf32>, tensor<8x1xf32> -> tensor<8x8xf32>
  %o1 = mirage_kernel.concat %a, %b dim 1 : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x16xf32>
  %ss = mirage_kernel.reduction %a dim 1 : tensor<8x8xf32> -> tensor<8x1xf32>
  %mean = mirage_kernel.mul_scalar %ss by 1.250000e-01 : tensor<8x1xf32>
  %rt = mirage_kernel.sqrt %mean : tensor<8x1xf32>
  %o2 = mirage_kernel.div %a, %rt : tensor<8x8xf32>, tensor<8x1xf32> -> tensor<8x8xf32>
  %e3 = mirage_kernel.exp %a : tensor<8x8xf32>
  %o3 = mirage_kernel.reduction %e3 dim 1 : tensor<8x8xf32> -> tensor<8x1xf32>
  %o4 = mirage_kernel.reduction %a dim 1 size 2 : tensor<8x8xf32> -> tensor<8x2xf32>
  %o5, %h5 = mirage_kernel.chunk %b dim 0 parts 2 : tensor<8x8xf32> -> tensor<4x8xf32>, tensor<4x8xf32>
  %o6 = mirage_kernel.pow %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  return %o0, %o1, %o2, %o3, %o4, %o5, %o6 : tensor<8x8xf32>, tensor<8x16xf32>, tensor<8x8xf32>, tensor<8x1xf32>, tensor<8x2xf32>, tensor<4x8xf32>, tensor<8x8xf32>
}

// exp(sum a) instead of sum exp(a).
// expected-error @below {{is not equivalent to @ref: output 3 differs}}
func.func @exp_of_sum(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>)
    -> (tensor<8x8xf32>, tensor<8x16xf32>, tensor<8x8xf32>, tensor<8x1xf32>, tensor<8x2xf32>, tensor<4x8xf32>, tensor<8x8xf32>) {
  %r0 = mirage_kernel.reduction %a dim 1 : tensor<8x8xf32> -> tensor<8x1xf32>
  %o0 = mirage_kernel.div %a, %r0 : tensor<8x8xf32>, tensor<8x1xf32> -> tensor<8x8xf32>
  %o1 = mirage_kernel.concat %a, %b dim 1 : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x16xf32>
  %o2 = mirage_kernel.rms_norm %a size 8 : tensor<8x8xf32>
  %s3 = mirage_kernel.reduction %a dim 1 : tensor<8x8xf32> -> tensor<8x1xf32>
  %o3 = mirage_kernel.exp %s3 : tensor<8x1xf32>
  %o4 = mirage_kernel.reduction %a dim 1 size 2 : tensor<8x8xf32> -> tensor<8x2xf32>
  %o5, %h5 = mirage_kernel.chunk %b dim 0 parts 2 : tensor<8x8xf32> -> tensor<4x8xf32>, tensor<4x8xf32>
  %o6 = mirage_kernel.pow %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  return %o0, %o1, %o2, %o3, %o4, %o5, %o6 : tensor<8x8xf32>, tensor<8x16xf32>, tensor<8x8xf32>, tensor<8x1xf32>, tensor<8x2xf32>, tensor<4x8xf32>, tensor<8x8xf32>
}

// Contiguous grouping instead of the strided rule: [sum of columns 0..3,
// sum of columns 4..7] instead of [sum of even columns, sum of odd columns].
// expected-error @below {{is not equivalent to @ref: output 4 differs}}
func.func @blocked_reduction(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>)
    -> (tensor<8x8xf32>, tensor<8x16xf32>, tensor<8x8xf32>, tensor<8x1xf32>, tensor<8x2xf32>, tensor<4x8xf32>, tensor<8x8xf32>) {
  %r0 = mirage_kernel.reduction %a dim 1 : tensor<8x8xf32> -> tensor<8x1xf32>
  %o0 = mirage_kernel.div %a, %r0 : tensor<8x8xf32>, tensor<8x1xf32> -> tensor<8x8xf32>
  %o1 = mirage_kernel.concat %a, %b dim 1 : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x16xf32>
  %o2 = mirage_kernel.rms_norm %a size 8 : tensor<8x8xf32>
  %e3 = mirage_kernel.exp %a : tensor<8x8xf32>
  %o3 = mirage_kernel.reduction %e3 dim 1 : tensor<8x8xf32> -> tensor<8x1xf32>
  %c0, %c1 = mirage_kernel.chunk %a dim 1 parts 2 : tensor<8x8xf32> -> tensor<8x4xf32>, tensor<8x4xf32>
  %s0 = mirage_kernel.reduction %c0 dim 1 : tensor<8x4xf32> -> tensor<8x1xf32>
  %s1 = mirage_kernel.reduction %c1 dim 1 : tensor<8x4xf32> -> tensor<8x1xf32>
  %o4 = mirage_kernel.concat %s0, %s1 dim 1 : tensor<8x1xf32>, tensor<8x1xf32> -> tensor<8x2xf32>
  %o5, %h5 = mirage_kernel.chunk %b dim 0 parts 2 : tensor<8x8xf32> -> tensor<4x8xf32>, tensor<4x8xf32>
  %o6 = mirage_kernel.pow %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  return %o0, %o1, %o2, %o3, %o4, %o5, %o6 : tensor<8x8xf32>, tensor<8x16xf32>, tensor<8x8xf32>, tensor<8x1xf32>, tensor<8x2xf32>, tensor<4x8xf32>, tensor<8x8xf32>
}

// The second half of b instead of the first.
// expected-error @below {{is not equivalent to @ref: output 5 differs}}
func.func @wrong_chunk(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>)
    -> (tensor<8x8xf32>, tensor<8x16xf32>, tensor<8x8xf32>, tensor<8x1xf32>, tensor<8x2xf32>, tensor<4x8xf32>, tensor<8x8xf32>) {
  %r0 = mirage_kernel.reduction %a dim 1 : tensor<8x8xf32> -> tensor<8x1xf32>
  %o0 = mirage_kernel.div %a, %r0 : tensor<8x8xf32>, tensor<8x1xf32> -> tensor<8x8xf32>
  %o1 = mirage_kernel.concat %a, %b dim 1 : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x16xf32>
  %o2 = mirage_kernel.rms_norm %a size 8 : tensor<8x8xf32>
  %e3 = mirage_kernel.exp %a : tensor<8x8xf32>
  %o3 = mirage_kernel.reduction %e3 dim 1 : tensor<8x8xf32> -> tensor<8x1xf32>
  %o4 = mirage_kernel.reduction %a dim 1 size 2 : tensor<8x8xf32> -> tensor<8x2xf32>
  %h5, %o5 = mirage_kernel.chunk %b dim 0 parts 2 : tensor<8x8xf32> -> tensor<4x8xf32>, tensor<4x8xf32>
  %o6 = mirage_kernel.pow %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  return %o0, %o1, %o2, %o3, %o4, %o5, %o6 : tensor<8x8xf32>, tensor<8x16xf32>, tensor<8x8xf32>, tensor<8x1xf32>, tensor<8x2xf32>, tensor<4x8xf32>, tensor<8x8xf32>
}

// pow(b, a) instead of pow(a, b).
// expected-error @below {{is not equivalent to @ref: output 6 differs}}
func.func @swapped_pow(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>)
    -> (tensor<8x8xf32>, tensor<8x16xf32>, tensor<8x8xf32>, tensor<8x1xf32>, tensor<8x2xf32>, tensor<4x8xf32>, tensor<8x8xf32>) {
  %r0 = mirage_kernel.reduction %a dim 1 : tensor<8x8xf32> -> tensor<8x1xf32>
  %o0 = mirage_kernel.div %a, %r0 : tensor<8x8xf32>, tensor<8x1xf32> -> tensor<8x8xf32>
  %o1 = mirage_kernel.concat %a, %b dim 1 : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x16xf32>
  %o2 = mirage_kernel.rms_norm %a size 8 : tensor<8x8xf32>
  %e3 = mirage_kernel.exp %a : tensor<8x8xf32>
  %o3 = mirage_kernel.reduction %e3 dim 1 : tensor<8x8xf32> -> tensor<8x1xf32>
  %o4 = mirage_kernel.reduction %a dim 1 size 2 : tensor<8x8xf32> -> tensor<8x2xf32>
  %o5, %h5 = mirage_kernel.chunk %b dim 0 parts 2 : tensor<8x8xf32> -> tensor<4x8xf32>, tensor<4x8xf32>
  %o6 = mirage_kernel.pow %b, %a : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  return %o0, %o1, %o2, %o3, %o4, %o5, %o6 : tensor<8x8xf32>, tensor<8x16xf32>, tensor<8x8xf32>, tensor<8x1xf32>, tensor<8x2xf32>, tensor<4x8xf32>, tensor<8x8xf32>
}
