// RUN: mirage-opt %s --mirage-check-equivalence -verify-diagnostics -o /dev/null
// RUN: mirage-opt %s --mirage-check-equivalence='seed=987654321 trials=3' -verify-diagnostics -o /dev/null
// RUN: not mirage-opt %s --mirage-check-equivalence -o /dev/null 2>/dev/null

// Single-mistake mutants of the cluster graphs of equivalent-cluster.mlir:
//   O = concat(R, R, dim 0),  R = reduction(X, dim 1, size 4)  (X 8x64)

func.func @ref(%x: tensor<8x64xf32>) -> tensor<16x4xf32> attributes {mirage.reference} {
  %r = mirage_kernel.reduction %x dim 1 size 4 : tensor<8x64xf32> -> tensor<8x4xf32>
  %o = mirage_kernel.concat %r, %r dim 0 : tensor<8x4xf32>, tensor<8x4xf32> -> tensor<16x4xf32>
  return %o : tensor<16x4xf32>
}

// No cluster_reduce: each block writes the reduction of its own half only.
// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @missing_cluster_reduce(%x: tensor<8x64xf32>) -> tensor<16x4xf32> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<8x64xf32>) -> tensor<16x4xf32>
      grid [2, 1, 1] block [64, 1, 1] forloop 1 cluster [2, 1, 1] {
    %xt = input_loader %X imap <x = 1> : tensor<8x64xf32> -> !mirage_block.stensor<8x32xf32>
        %r = reduction %xt dim 1 size 4 : !mirage_block.stensor<8x32xf32> -> !mirage_block.stensor<8x4xf32>
    %out = output_saver %r omap <x = 0> : !mirage_block.stensor<8x4xf32> -> tensor<16x4xf32>
    yield %out : tensor<16x4xf32>
  }
  return %o : tensor<16x4xf32>
}

// A stray square: cluster_gather of x^2 instead of x.
// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @gather_of_squares(%x: tensor<8x64xf32>) -> tensor<16x4xf32> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<8x64xf32>) -> tensor<16x4xf32>
      grid [2, 1, 1] block [64, 1, 1] forloop 1 cluster [2, 1, 1] {
    %xt = input_loader %X imap <x = 1> : tensor<8x64xf32> -> !mirage_block.stensor<8x32xf32>
    %sq = square %xt : !mirage_block.stensor<8x32xf32>
    %g = cluster_gather %sq dim 1 : !mirage_block.stensor<8x32xf32> -> !mirage_block.stensor<8x64xf32>
    %r = reduction %g dim 1 size 4 : !mirage_block.stensor<8x64xf32> -> !mirage_block.stensor<8x4xf32>
    %out = output_saver %r omap <x = 0> : !mirage_block.stensor<8x4xf32> -> tensor<16x4xf32>
    yield %out : tensor<16x4xf32>
  }
  return %o : tensor<16x4xf32>
}

// Cluster of 4 without the cluster_reduce: the copies taken from %p are
// per-block partials (blocks 3 and 1), not R.
// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @cluster_of_4_missing_reduce(%x: tensor<8x64xf32>) -> tensor<16x4xf32> {
  %p = mirage_kernel.graph_def(%X = %x : tensor<8x64xf32>) -> tensor<8x16xf32>
      grid [4, 1, 1] block [64, 1, 1] forloop 2 cluster [4, 1, 1] {
    %xt = input_loader %X imap <x = 1> fmap 1 : tensor<8x64xf32> -> !mirage_block.stensor<8x8xf32>
    %acc = forloop_accum %xt sum_last_to 4 : !mirage_block.stensor<8x8xf32> -> !mirage_block.stensor<8x4xf32>
        %out = output_saver %acc omap <x = 1> : !mirage_block.stensor<8x4xf32> -> tensor<8x16xf32>
    yield %out : tensor<8x16xf32>
  }
  // Each 8x4 column block of %p is R; take the first two via chunk.
  %c:4 = mirage_kernel.chunk %p dim 1 parts 4 : tensor<8x16xf32> -> tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>
  %o = mirage_kernel.concat %c#3, %c#1 dim 0 : tensor<8x4xf32>, tensor<8x4xf32> -> tensor<16x4xf32>
  return %o : tensor<16x4xf32>
}

// Cluster of 4 with sum_last (row sum to 1) instead of sum_last_to 4;
// the row sum is then replicated to 4 columns by concat.
// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @cluster_of_4_sum_last(%x: tensor<8x64xf32>) -> tensor<16x4xf32> {
  %p = mirage_kernel.graph_def(%X = %x : tensor<8x64xf32>) -> tensor<8x16xf32>
      grid [4, 1, 1] block [64, 1, 1] forloop 2 cluster [4, 1, 1] {
    %xt = input_loader %X imap <x = 1> fmap 1 : tensor<8x64xf32> -> !mirage_block.stensor<8x8xf32>
    %acc1 = forloop_accum %xt sum_last : !mirage_block.stensor<8x8xf32> -> !mirage_block.stensor<8x1xf32>
    %acc2 = concat %acc1, %acc1 dim 1 : !mirage_block.stensor<8x1xf32>, !mirage_block.stensor<8x1xf32> -> !mirage_block.stensor<8x2xf32>
    %acc = concat %acc2, %acc2 dim 1 : !mirage_block.stensor<8x2xf32>, !mirage_block.stensor<8x2xf32> -> !mirage_block.stensor<8x4xf32>
    %s = cluster_reduce %acc : !mirage_block.stensor<8x4xf32>
    %out = output_saver %s omap <x = 1> : !mirage_block.stensor<8x4xf32> -> tensor<8x16xf32>
    yield %out : tensor<8x16xf32>
  }
  // Each 8x4 column block of %p is R; take the first two via chunk.
  %c:4 = mirage_kernel.chunk %p dim 1 parts 4 : tensor<8x16xf32> -> tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>
  %o = mirage_kernel.concat %c#3, %c#1 dim 0 : tensor<8x4xf32>, tensor<8x4xf32> -> tensor<16x4xf32>
  return %o : tensor<16x4xf32>
}

// Two clusters of 2: the copies of the SAME cluster (blocks 0 and 1) are
// added, instead of one copy of each cluster.
// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @two_clusters_same_cluster_twice(%x: tensor<8x64xf32>) -> tensor<16x4xf32> {
  %p = mirage_kernel.graph_def(%X = %x : tensor<8x64xf32>) -> tensor<8x16xf32>
      grid [4, 1, 1] block [64, 1, 1] forloop 2 cluster [2, 1, 1] {
    %xt = input_loader %X imap <x = 1> fmap 1 : tensor<8x64xf32> -> !mirage_block.stensor<8x8xf32>
    %acc = forloop_accum %xt sum_last_to 4 : !mirage_block.stensor<8x8xf32> -> !mirage_block.stensor<8x4xf32>
    %s = cluster_reduce %acc : !mirage_block.stensor<8x4xf32>
    %out = output_saver %s omap <x = 1> : !mirage_block.stensor<8x4xf32> -> tensor<8x16xf32>
    yield %out : tensor<8x16xf32>
  }
  %c:4 = mirage_kernel.chunk %p dim 1 parts 4 : tensor<8x16xf32> -> tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>
  %r = mirage_kernel.add %c#0, %c#1 : tensor<8x4xf32>, tensor<8x4xf32> -> tensor<8x4xf32>
  %o = mirage_kernel.concat %r, %r dim 0 : tensor<8x4xf32>, tensor<8x4xf32> -> tensor<16x4xf32>
  return %o : tensor<16x4xf32>
}

// cluster_reduce_scatter in two clusters of 2 instead of one of 4: each
// cluster's rows hold the sum of its own half of the columns, not R.
// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @reduce_scatter_over_half_the_blocks(%x: tensor<8x64xf32>) -> tensor<16x4xf32> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<8x64xf32>) -> tensor<16x4xf32>
      grid [4, 1, 1] block [64, 1, 1] forloop 1 cluster [2, 1, 1] {
    %xt = input_loader %X imap <x = 1> : tensor<8x64xf32> -> !mirage_block.stensor<8x16xf32>
    %p = reduction %xt dim 1 size 4 : !mirage_block.stensor<8x16xf32> -> !mirage_block.stensor<8x4xf32>
    %s = cluster_reduce_scatter %p dim 0 : !mirage_block.stensor<8x4xf32> -> !mirage_block.stensor<4x4xf32>
    %out = output_saver %s omap <x = 0> : !mirage_block.stensor<4x4xf32> -> tensor<16x4xf32>
    yield %out : tensor<16x4xf32>
  }
  return %o : tensor<16x4xf32>
}
