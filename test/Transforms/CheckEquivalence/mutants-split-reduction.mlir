// RUN: mirage-opt %s --mirage-check-equivalence -verify-diagnostics -o /dev/null
// RUN: mirage-opt %s --mirage-check-equivalence='seed=987654321 trials=3' -verify-diagnostics -o /dev/null
// RUN: not mirage-opt %s --mirage-check-equivalence -o /dev/null 2>/dev/null

// Mutants of reductions split across blocks (correct versions in
// equivalent-split-reduction.mlir).
//   o0 = reduction(X, dim 1, size 4)   (strided: o0[:, j] = sum of columns c = j mod 4)
//   o1 = matmul(X, W)                  X 8x64, W 64x8

func.func @ref(%x: tensor<8x64xf32>, %w: tensor<64x8xf32>) -> (tensor<8x4xf32>, tensor<8x8xf32>)
    attributes {mirage.reference} {
  %o0 = mirage_kernel.reduction %x dim 1 size 4 : tensor<8x64xf32> -> tensor<8x4xf32>
  %o1 = mirage_kernel.matmul %x, %w : tensor<8x64xf32>, tensor<64x8xf32> -> tensor<8x8xf32>
  return %o0, %o1 : tensor<8x4xf32>, tensor<8x8xf32>
}

// Blocked (contiguous) instead of strided grouping: block x sums its 16
// adjacent columns [16x, 16x+16) and writes the sum at column x, so
// o0[:, j] = sum of columns 16j..16j+15 instead of the columns c = j mod 4.
// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @blocked_partials(%x: tensor<8x64xf32>, %w: tensor<64x8xf32>) -> (tensor<8x4xf32>, tensor<8x8xf32>) {
  %o0 = mirage_kernel.graph_def(%X = %x : tensor<8x64xf32>) -> tensor<8x4xf32> grid [4, 1, 1] block [32, 1, 1] forloop 1 {
    %xt = input_loader %X imap <x = 1> : tensor<8x64xf32> -> !mirage_block.stensor<8x16xf32>
    %r = reduction %xt dim 1 : !mirage_block.stensor<8x16xf32> -> !mirage_block.stensor<8x1xf32>
    %out = output_saver %r omap <x = 1> : !mirage_block.stensor<8x1xf32> -> tensor<8x4xf32>
    yield %out : tensor<8x4xf32>
  }
  %o1 = mirage_kernel.matmul %x, %w : tensor<8x64xf32>, tensor<64x8xf32> -> tensor<8x8xf32>
  return %o0, %o1 : tensor<8x4xf32>, tensor<8x8xf32>
}

// The same blocked grouping with a for-loop: block x walks its 16 columns in
// 2 chunks of 8 and accumulates sum_last.
// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @blocked_partials_loop(%x: tensor<8x64xf32>, %w: tensor<64x8xf32>) -> (tensor<8x4xf32>, tensor<8x8xf32>) {
  %o0 = mirage_kernel.graph_def(%X = %x : tensor<8x64xf32>) -> tensor<8x4xf32> grid [4, 1, 1] block [32, 1, 1] forloop 2 {
    %xt = input_loader %X imap <x = 1> fmap 1 : tensor<8x64xf32> -> !mirage_block.stensor<8x8xf32>
    %acc = forloop_accum %xt sum_last : !mirage_block.stensor<8x8xf32> -> !mirage_block.stensor<8x1xf32>
    %out = output_saver %acc omap <x = 1> : !mirage_block.stensor<8x1xf32> -> tensor<8x4xf32>
    yield %out : tensor<8x4xf32>
  }
  %o1 = mirage_kernel.matmul %x, %w : tensor<8x64xf32>, tensor<64x8xf32> -> tensor<8x8xf32>
  return %o0, %o1 : tensor<8x4xf32>, tensor<8x8xf32>
}

// The partials are interleaved (block x writes its 4 partials at columns
// 4x..4x+3 of P, 8x16) but the combination adds ADJACENT columns, as if the
// kernel reduction were contiguous: here written out as chunk + per-chunk
// reduction + concat, which sums partials 0..3 of block 0 into column 0.
// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @partials_combined_contiguously(%x: tensor<8x64xf32>, %w: tensor<64x8xf32>) -> (tensor<8x4xf32>, tensor<8x8xf32>) {
  %p = mirage_kernel.graph_def(%X = %x : tensor<8x64xf32>) -> tensor<8x16xf32> grid [4, 1, 1] block [32, 1, 1] forloop 1 {
    %xt = input_loader %X imap <x = 1> : tensor<8x64xf32> -> !mirage_block.stensor<8x16xf32>
    %r = reduction %xt dim 1 size 4 : !mirage_block.stensor<8x16xf32> -> !mirage_block.stensor<8x4xf32>
    %out = output_saver %r omap <x = 1> : !mirage_block.stensor<8x4xf32> -> tensor<8x16xf32>
    yield %out : tensor<8x16xf32>
  }
  %c:4 = mirage_kernel.chunk %p dim 1 parts 4 : tensor<8x16xf32> -> tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>
  %s0 = mirage_kernel.reduction %c#0 dim 1 : tensor<8x4xf32> -> tensor<8x1xf32>
  %s1 = mirage_kernel.reduction %c#1 dim 1 : tensor<8x4xf32> -> tensor<8x1xf32>
  %s2 = mirage_kernel.reduction %c#2 dim 1 : tensor<8x4xf32> -> tensor<8x1xf32>
  %s3 = mirage_kernel.reduction %c#3 dim 1 : tensor<8x4xf32> -> tensor<8x1xf32>
  %s01 = mirage_kernel.concat %s0, %s1 dim 1 : tensor<8x1xf32>, tensor<8x1xf32> -> tensor<8x2xf32>
  %s23 = mirage_kernel.concat %s2, %s3 dim 1 : tensor<8x1xf32>, tensor<8x1xf32> -> tensor<8x2xf32>
  %o0 = mirage_kernel.concat %s01, %s23 dim 1 : tensor<8x2xf32>, tensor<8x2xf32> -> tensor<8x4xf32>
  %o1 = mirage_kernel.matmul %x, %w : tensor<8x64xf32>, tensor<64x8xf32> -> tensor<8x8xf32>
  return %o0, %o1 : tensor<8x4xf32>, tensor<8x8xf32>
}

// The tiles are reduced to size 2 instead of 4 before being placed side by
// side; the final reduction to 4 of the 8x4 P is then the identity.
// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @tiles_reduced_to_wrong_size(%x: tensor<8x64xf32>, %w: tensor<64x8xf32>) -> (tensor<8x4xf32>, tensor<8x8xf32>) {
  %p = mirage_kernel.graph_def(%X = %x : tensor<8x64xf32>) -> tensor<8x4xf32> grid [2, 1, 1] block [32, 1, 1] forloop 2 {
    %xt = input_loader %X imap <x = 1> fmap 1 : tensor<8x64xf32> -> !mirage_block.stensor<8x16xf32>
    %acc = forloop_accum %xt sum_last_to 2 : !mirage_block.stensor<8x16xf32> -> !mirage_block.stensor<8x2xf32>
    %out = output_saver %acc omap <x = 1> : !mirage_block.stensor<8x2xf32> -> tensor<8x4xf32>
    yield %out : tensor<8x4xf32>
  }
  %o0 = mirage_kernel.reduction %p dim 1 size 4 : tensor<8x4xf32> -> tensor<8x4xf32>
  %o1 = mirage_kernel.matmul %x, %w : tensor<8x64xf32>, tensor<64x8xf32> -> tensor<8x8xf32>
  return %o0, %o1 : tensor<8x4xf32>, tensor<8x8xf32>
}

// Split-K with only the first of the 4 partials kept (the combining
// reduction forgotten, a chunk taken instead).
// expected-error @below {{is not equivalent to @ref: output 1 differs}}
func.func @split_k_one_partial(%x: tensor<8x64xf32>, %w: tensor<64x8xf32>) -> (tensor<8x4xf32>, tensor<8x8xf32>) {
  %o0 = mirage_kernel.reduction %x dim 1 size 4 : tensor<8x64xf32> -> tensor<8x4xf32>
  %p = mirage_kernel.graph_def(%X = %x : tensor<8x64xf32>, %W = %w : tensor<64x8xf32>)
      -> tensor<8x32xf32> grid [1, 4, 1] block [32, 1, 1] forloop 1 {
    %xt = input_loader %X imap <y = 1> : tensor<8x64xf32> -> !mirage_block.stensor<8x16xf32>
    %wt = input_loader %W imap <y = 0> : tensor<64x8xf32> -> !mirage_block.stensor<16x8xf32>
    %mm = matmul %xt, %wt : !mirage_block.stensor<8x16xf32>, !mirage_block.stensor<16x8xf32> -> !mirage_block.stensor<8x8xf32>
    %out = output_saver %mm omap <y = 1> : !mirage_block.stensor<8x8xf32> -> tensor<8x32xf32>
    yield %out : tensor<8x32xf32>
  }
  %c:4 = mirage_kernel.chunk %p dim 1 parts 4 : tensor<8x32xf32> -> tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
  return %o0, %c#0 : tensor<8x4xf32>, tensor<8x8xf32>
}
