// RUN: mirage-opt %s --mirage-check-equivalence -verify-diagnostics -o /dev/null
// RUN: mirage-opt %s --mirage-check-equivalence='seed=987654321 trials=3' -verify-diagnostics -o /dev/null

// Reductions across the blocks of a thread-block cluster
// (docs/LanguageReference.md, "Compute ops and cluster collectives"):
// cluster_reduce sums a tile over the blocks of the cluster, cluster_gather
// concatenates the tiles in rank order. Every block then holds the full
// result and writes its own copy, so the output holds it twice:
//   R = reduction(X, dim 1, size 4)   (X 8x64, strided)
//   O = concat(R, R, dim 0)           (16x4)

func.func @ref(%x: tensor<8x64xf32>) -> tensor<16x4xf32> attributes {mirage.reference} {
  %r = mirage_kernel.reduction %x dim 1 size 4 : tensor<8x64xf32> -> tensor<8x4xf32>
  %o = mirage_kernel.concat %r, %r dim 0 : tensor<8x4xf32>, tensor<8x4xf32> -> tensor<16x4xf32>
  return %o : tensor<16x4xf32>
}

// Block x loads columns [32x, 32x+32); cluster_reduce adds the two halves
// (X[:, c] + X[:, c+32]), then the strided reduction to 4 finishes the sum.
// expected-remark @below {{is equivalent to @ref}}
func.func @cluster_reduce(%x: tensor<8x64xf32>) -> tensor<16x4xf32> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<8x64xf32>) -> tensor<16x4xf32>
      grid [2, 1, 1] block [64, 1, 1] forloop 1 cluster [2, 1, 1] {
    %xt = input_loader %X imap <x = 1> : tensor<8x64xf32> -> !mirage_block.stensor<8x32xf32>
    %s = cluster_reduce %xt : !mirage_block.stensor<8x32xf32>
    %r = reduction %s dim 1 size 4 : !mirage_block.stensor<8x32xf32> -> !mirage_block.stensor<8x4xf32>
    %out = output_saver %r omap <x = 0> : !mirage_block.stensor<8x4xf32> -> tensor<16x4xf32>
    yield %out : tensor<16x4xf32>
  }
  return %o : tensor<16x4xf32>
}

// Reduce first (each block its half, to 4), then cluster_reduce the partials.
// expected-remark @below {{is equivalent to @ref}}
func.func @reduce_then_cluster_reduce(%x: tensor<8x64xf32>) -> tensor<16x4xf32> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<8x64xf32>) -> tensor<16x4xf32>
      grid [2, 1, 1] block [64, 1, 1] forloop 1 cluster [2, 1, 1] {
    %xt = input_loader %X imap <x = 1> : tensor<8x64xf32> -> !mirage_block.stensor<8x32xf32>
    %r = reduction %xt dim 1 size 4 : !mirage_block.stensor<8x32xf32> -> !mirage_block.stensor<8x4xf32>
    %s = cluster_reduce %r : !mirage_block.stensor<8x4xf32>
    %out = output_saver %s omap <x = 0> : !mirage_block.stensor<8x4xf32> -> tensor<16x4xf32>
    yield %out : tensor<16x4xf32>
  }
  return %o : tensor<16x4xf32>
}

// cluster_gather rebuilds the whole 8x64 X in every block.
// expected-remark @below {{is equivalent to @ref}}
func.func @cluster_gather(%x: tensor<8x64xf32>) -> tensor<16x4xf32> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<8x64xf32>) -> tensor<16x4xf32>
      grid [2, 1, 1] block [64, 1, 1] forloop 1 cluster [2, 1, 1] {
    %xt = input_loader %X imap <x = 1> : tensor<8x64xf32> -> !mirage_block.stensor<8x32xf32>
    %g = cluster_gather %xt dim 1 : !mirage_block.stensor<8x32xf32> -> !mirage_block.stensor<8x64xf32>
    %r = reduction %g dim 1 size 4 : !mirage_block.stensor<8x64xf32> -> !mirage_block.stensor<8x4xf32>
    %out = output_saver %r omap <x = 0> : !mirage_block.stensor<8x4xf32> -> tensor<16x4xf32>
    yield %out : tensor<16x4xf32>
  }
  return %o : tensor<16x4xf32>
}

// A cluster of 4 along x with a for-loop: block x loads columns
// [16x, 16x+16) in 2 chunks of 8 and accumulates sum_last_to 4; after
// cluster_reduce every block holds R and writes it at columns [4x, 4x+4) of
// P (8x16 = [R R R R]). Two of the copies (blocks 3 and 1) make the output.
// expected-remark @below {{is equivalent to @ref}}
func.func @cluster_of_4_with_loop(%x: tensor<8x64xf32>) -> tensor<16x4xf32> {
  %p = mirage_kernel.graph_def(%X = %x : tensor<8x64xf32>) -> tensor<8x16xf32>
      grid [4, 1, 1] block [64, 1, 1] forloop 2 cluster [4, 1, 1] {
    %xt = input_loader %X imap <x = 1> fmap 1 : tensor<8x64xf32> -> !mirage_block.stensor<8x8xf32>
    %acc = forloop_accum %xt sum_last_to 4 : !mirage_block.stensor<8x8xf32> -> !mirage_block.stensor<8x4xf32>
    %s = cluster_reduce %acc : !mirage_block.stensor<8x4xf32>
    %out = output_saver %s omap <x = 1> : !mirage_block.stensor<8x4xf32> -> tensor<8x16xf32>
    yield %out : tensor<8x16xf32>
  }
  // Each 8x4 column block of %p is R; take the first two via chunk.
  %c:4 = mirage_kernel.chunk %p dim 1 parts 4 : tensor<8x16xf32> -> tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>
  %o = mirage_kernel.concat %c#3, %c#1 dim 0 : tensor<8x4xf32>, tensor<8x4xf32> -> tensor<16x4xf32>
  return %o : tensor<16x4xf32>
}

// A cluster along y (grid [1, 2, 1], cluster [1, 2, 1]): rank order follows
// y, so cluster_gather along dim 1 rebuilds X; the copies go to rows by y.
// expected-remark @below {{is equivalent to @ref}}
func.func @cluster_gather_along_y(%x: tensor<8x64xf32>) -> tensor<16x4xf32> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<8x64xf32>) -> tensor<16x4xf32>
      grid [1, 2, 1] block [64, 1, 1] forloop 1 cluster [1, 2, 1] {
    %xt = input_loader %X imap <y = 1> : tensor<8x64xf32> -> !mirage_block.stensor<8x32xf32>
    %g = cluster_gather %xt dim 1 : !mirage_block.stensor<8x32xf32> -> !mirage_block.stensor<8x64xf32>
    %r = reduction %g dim 1 size 4 : !mirage_block.stensor<8x64xf32> -> !mirage_block.stensor<8x4xf32>
    %out = output_saver %r omap <y = 0> : !mirage_block.stensor<8x4xf32> -> tensor<16x4xf32>
    yield %out : tensor<16x4xf32>
  }
  return %o : tensor<16x4xf32>
}

// Two clusters of 2 (grid [4, 1, 1], cluster [2, 1, 1]) over a for-loop:
// block x reads columns [16x, 16x+16) of X in 2 chunks of 8, and each
// cluster reduces its own pair, so P = [A A B B] with A + B = R; the output
// adds one copy of each cluster's sum (columns 0-3 and 8-11 of P).
// expected-remark @below {{is equivalent to @ref}}
func.func @two_clusters(%x: tensor<8x64xf32>) -> tensor<16x4xf32> {
  %p = mirage_kernel.graph_def(%X = %x : tensor<8x64xf32>) -> tensor<8x16xf32>
      grid [4, 1, 1] block [64, 1, 1] forloop 2 cluster [2, 1, 1] {
    %xt = input_loader %X imap <x = 1> fmap 1 : tensor<8x64xf32> -> !mirage_block.stensor<8x8xf32>
    %acc = forloop_accum %xt sum_last_to 4 : !mirage_block.stensor<8x8xf32> -> !mirage_block.stensor<8x4xf32>
    %s = cluster_reduce %acc : !mirage_block.stensor<8x4xf32>
    %out = output_saver %s omap <x = 1> : !mirage_block.stensor<8x4xf32> -> tensor<8x16xf32>
    yield %out : tensor<8x16xf32>
  }
  %c:4 = mirage_kernel.chunk %p dim 1 parts 4 : tensor<8x16xf32> -> tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>
  %r = mirage_kernel.add %c#1, %c#2 : tensor<8x4xf32>, tensor<8x4xf32> -> tensor<8x4xf32>
  %o = mirage_kernel.concat %r, %r dim 0 : tensor<8x4xf32>, tensor<8x4xf32> -> tensor<16x4xf32>
  return %o : tensor<16x4xf32>
}

// cluster_reduce_scatter: the two blocks add their partials and each keeps
// one half of the rows of the sum, which it alone saves.
// expected-remark @below {{is equivalent to @ref}}
func.func @reduce_scatter_rows(%x: tensor<8x64xf32>) -> tensor<16x4xf32> {
  %r = mirage_kernel.graph_def(%X = %x : tensor<8x64xf32>) -> tensor<8x4xf32>
      grid [2, 1, 1] block [64, 1, 1] forloop 1 cluster [2, 1, 1] {
    %xt = input_loader %X imap <x = 1> : tensor<8x64xf32> -> !mirage_block.stensor<8x32xf32>
    %p = reduction %xt dim 1 size 4 : !mirage_block.stensor<8x32xf32> -> !mirage_block.stensor<8x4xf32>
    %s = cluster_reduce_scatter %p dim 0 : !mirage_block.stensor<8x4xf32> -> !mirage_block.stensor<4x4xf32>
    %out = output_saver %s omap <x = 0> : !mirage_block.stensor<4x4xf32> -> tensor<8x4xf32>
    yield %out : tensor<8x4xf32>
  }
  %o = mirage_kernel.concat %r, %r dim 0 : tensor<8x4xf32>, tensor<8x4xf32> -> tensor<16x4xf32>
  return %o : tensor<16x4xf32>
}

// The same along the columns, in a cluster of 4 along y with a for-loop:
// block y keeps column y of R.
// expected-remark @below {{is equivalent to @ref}}
func.func @reduce_scatter_columns(%x: tensor<8x64xf32>) -> tensor<16x4xf32> {
  %r = mirage_kernel.graph_def(%X = %x : tensor<8x64xf32>) -> tensor<8x4xf32>
      grid [1, 4, 1] block [64, 1, 1] forloop 2 cluster [1, 4, 1] {
    %xt = input_loader %X imap <y = 1> fmap 1 : tensor<8x64xf32> -> !mirage_block.stensor<8x8xf32>
    %acc = forloop_accum %xt sum_last_to 4 : !mirage_block.stensor<8x8xf32> -> !mirage_block.stensor<8x4xf32>
    %s = cluster_reduce_scatter %acc dim 1 : !mirage_block.stensor<8x4xf32> -> !mirage_block.stensor<8x1xf32>
    %out = output_saver %s omap <y = 1> : !mirage_block.stensor<8x1xf32> -> tensor<8x4xf32>
    yield %out : tensor<8x4xf32>
  }
  %o = mirage_kernel.concat %r, %r dim 0 : tensor<8x4xf32>, tensor<8x4xf32> -> tensor<16x4xf32>
  return %o : tensor<16x4xf32>
}
