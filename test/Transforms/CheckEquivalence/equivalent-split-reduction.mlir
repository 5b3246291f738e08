// RUN: mirage-opt %s --mirage-check-equivalence -verify-diagnostics -o /dev/null
// RUN: mirage-opt %s --mirage-check-equivalence='seed=987654321 trials=3' -verify-diagnostics -o /dev/null

// Reductions and contractions split across blocks and for-loop iterations.
// Partial results written side by side (omap) are combined by a kernel
// reduction to size s, whose STRIDED rule out[.., j] = sum_k in[.., j + k*s]
// adds up the partials of equal position j (docs/LanguageReference.md,
// "Strided reductions").
//   o0 = reduction(X, dim 1, size 4)   (strided: o0[:, j] = sum of columns c = j mod 4)
//   o1 = matmul(X, W)                  X 8x64, W 64x8

func.func @ref(%x: tensor<8x64xf32>, %w: tensor<64x8xf32>) -> (tensor<8x4xf32>, tensor<8x8xf32>)
    attributes {mirage.reference} {
  %o0 = mirage_kernel.reduction %x dim 1 size 4 : tensor<8x64xf32> -> tensor<8x4xf32>
  %o1 = mirage_kernel.matmul %x, %w : tensor<8x64xf32>, tensor<64x8xf32> -> tensor<8x8xf32>
  return %o0, %o1 : tensor<8x4xf32>, tensor<8x8xf32>
}

// o0: block x reduces columns [16x, 16x+16) to 4 partials (strided inside
// the tile), writes them at columns [4x, 4x+4) of P (8x16); the kernel
// reduction of P to size 4 adds the partials of each position.
// expected-remark @below {{is equivalent to @ref}}
func.func @partials_then_strided_reduction(%x: tensor<8x64xf32>, %w: tensor<64x8xf32>) -> (tensor<8x4xf32>, tensor<8x8xf32>) {
  %p = mirage_kernel.graph_def(%X = %x : tensor<8x64xf32>) -> tensor<8x16xf32> grid [4, 1, 1] block [32, 1, 1] forloop 1 {
    %xt = input_loader %X imap <x = 1> : tensor<8x64xf32> -> !mirage_block.stensor<8x16xf32>
    %r = reduction %xt dim 1 size 4 : !mirage_block.stensor<8x16xf32> -> !mirage_block.stensor<8x4xf32>
    %out = output_saver %r omap <x = 1> : !mirage_block.stensor<8x4xf32> -> tensor<8x16xf32>
    yield %out : tensor<8x16xf32>
  }
  %o0 = mirage_kernel.reduction %p dim 1 size 4 : tensor<8x16xf32> -> tensor<8x4xf32>
  %o1 = mirage_kernel.matmul %x, %w : tensor<8x64xf32>, tensor<64x8xf32> -> tensor<8x8xf32>
  return %o0, %o1 : tensor<8x4xf32>, tensor<8x8xf32>
}

// o0: 2 blocks x 2 loop iterations; forloop_accum sum_last_to 4 reduces each
// 8x16 chunk to 4 (strided) and sums over the loop; partials side by side.
// expected-remark @below {{is equivalent to @ref}}
func.func @sum_last_to_then_strided_reduction(%x: tensor<8x64xf32>, %w: tensor<64x8xf32>) -> (tensor<8x4xf32>, tensor<8x8xf32>) {
  %p = mirage_kernel.graph_def(%X = %x : tensor<8x64xf32>) -> tensor<8x8xf32> grid [2, 1, 1] block [32, 1, 1] forloop 2 {
    %xt = input_loader %X imap <x = 1> fmap 1 : tensor<8x64xf32> -> !mirage_block.stensor<8x16xf32>
    %acc = forloop_accum %xt sum_last_to 4 : !mirage_block.stensor<8x16xf32> -> !mirage_block.stensor<8x4xf32>
    %out = output_saver %acc omap <x = 1> : !mirage_block.stensor<8x4xf32> -> tensor<8x8xf32>
    yield %out : tensor<8x8xf32>
  }
  %o0 = mirage_kernel.reduction %p dim 1 size 4 : tensor<8x8xf32> -> tensor<8x4xf32>
  %o1 = mirage_kernel.matmul %x, %w : tensor<8x64xf32>, tensor<64x8xf32> -> tensor<8x8xf32>
  return %o0, %o1 : tensor<8x4xf32>, tensor<8x8xf32>
}

// o0 in one block, no partials: the for-loop walks the 4 chunks of 16 columns.
// expected-remark @below {{is equivalent to @ref}}
func.func @sum_last_to_single_block(%x: tensor<8x64xf32>, %w: tensor<64x8xf32>) -> (tensor<8x4xf32>, tensor<8x8xf32>) {
  %o0 = mirage_kernel.graph_def(%X = %x : tensor<8x64xf32>) -> tensor<8x4xf32> grid [1, 1, 1] block [32, 1, 1] forloop 4 {
    %xt = input_loader %X imap <> fmap 1 : tensor<8x64xf32> -> !mirage_block.stensor<8x16xf32>
    %acc = forloop_accum %xt sum_last_to 4 : !mirage_block.stensor<8x16xf32> -> !mirage_block.stensor<8x4xf32>
    %out = output_saver %acc omap <> : !mirage_block.stensor<8x4xf32> -> tensor<8x4xf32>
    yield %out : tensor<8x4xf32>
  }
  %o1 = mirage_kernel.matmul %x, %w : tensor<8x64xf32>, tensor<64x8xf32> -> tensor<8x8xf32>
  return %o0, %o1 : tensor<8x4xf32>, tensor<8x8xf32>
}

// o1 split-K: block y multiplies K-chunk y (16 wide) and writes its 8x8
// partial at columns [8y, 8y+8) of P (8x32); reduction to size 8 sums them.
// expected-remark @below {{is equivalent to @ref}}
func.func @split_k_side_by_side(%x: tensor<8x64xf32>, %w: tensor<64x8xf32>) -> (tensor<8x4xf32>, tensor<8x8xf32>) {
  %o0 = mirage_kernel.reduction %x dim 1 size 4 : tensor<8x64xf32> -> tensor<8x4xf32>
  %p = mirage_kernel.graph_def(%X = %x : tensor<8x64xf32>, %W = %w : tensor<64x8xf32>)
      -> tensor<8x32xf32> grid [1, 4, 1] block [32, 1, 1] forloop 1 {
    %xt = input_loader %X imap <y = 1> : tensor<8x64xf32> -> !mirage_block.stensor<8x16xf32>
    %wt = input_loader %W imap <y = 0> : tensor<64x8xf32> -> !mirage_block.stensor<16x8xf32>
    %mm = matmul %xt, %wt : !mirage_block.stensor<8x16xf32>, !mirage_block.stensor<16x8xf32> -> !mirage_block.stensor<8x8xf32>
    %out = output_saver %mm omap <y = 1> : !mirage_block.stensor<8x8xf32> -> tensor<8x32xf32>
    yield %out : tensor<8x32xf32>
  }
  %o1 = mirage_kernel.reduction %p dim 1 size 8 : tensor<8x32xf32> -> tensor<8x8xf32>
  return %o0, %o1 : tensor<8x4xf32>, tensor<8x8xf32>
}

// o1 split-K with the partials stacked along rows (P 32x8) and a reduction
// of dim 0 to size 8; the grid axis is z, and each block also loops over
// its K-chunk in 2 iterations.
// expected-remark @below {{is equivalent to @ref}}
func.func @split_k_stacked_rows(%x: tensor<8x64xf32>, %w: tensor<64x8xf32>) -> (tensor<8x4xf32>, tensor<8x8xf32>) {
  %o0 = mirage_kernel.reduction %x dim 1 size 4 : tensor<8x64xf32> -> tensor<8x4xf32>
  %p = mirage_kernel.graph_def(%X = %x : tensor<8x64xf32>, %W = %w : tensor<64x8xf32>)
      -> tensor<32x8xf32> grid [1, 1, 4] block [32, 1, 1] forloop 2 {
    %xt = input_loader %X imap <z = 1> fmap 1 : tensor<8x64xf32> -> !mirage_block.stensor<8x8xf32>
    %wt = input_loader %W imap <z = 0> fmap 0 : tensor<64x8xf32> -> !mirage_block.stensor<8x8xf32>
    %mm = matmul %xt, %wt : !mirage_block.stensor<8x8xf32>, !mirage_block.stensor<8x8xf32> -> !mirage_block.stensor<8x8xf32>
    %acc = forloop_accum %mm sum : !mirage_block.stensor<8x8xf32> -> !mirage_block.stensor<8x8xf32>
    %out = output_saver %acc omap <z = 0> : !mirage_block.stensor<8x8xf32> -> tensor<32x8xf32>
    yield %out : tensor<32x8xf32>
  }
  %o1 = mirage_kernel.reduction %p dim 0 size 8 : tensor<32x8xf32> -> tensor<8x8xf32>
  return %o0, %o1 : tensor<8x4xf32>, tensor<8x8xf32>
}

// A for-loop over the contraction dim (4 chunks of 16) vs no loop at all.
// expected-remark @below {{is equivalent to @ref}}
func.func @forloop_over_k(%x: tensor<8x64xf32>, %w: tensor<64x8xf32>) -> (tensor<8x4xf32>, tensor<8x8xf32>) {
  %o0 = mirage_kernel.reduction %x dim 1 size 4 : tensor<8x64xf32> -> tensor<8x4xf32>
  %o1 = mirage_kernel.graph_def(%X = %x : tensor<8x64xf32>, %W = %w : tensor<64x8xf32>)
      -> tensor<8x8xf32> grid [2, 1, 1] block [32, 1, 1] forloop 4 {
    %xt = input_loader %X imap <> fmap 1 : tensor<8x64xf32> -> !mirage_block.stensor<8x16xf32>
    %wt = input_loader %W imap <x = 1> fmap 0 : tensor<64x8xf32> -> !mirage_block.stensor<16x4xf32>
    %mm = matmul %xt, %wt : !mirage_block.stensor<8x16xf32>, !mirage_block.stensor<16x4xf32> -> !mirage_block.stensor<8x4xf32>
    %acc = forloop_accum %mm sum : !mirage_block.stensor<8x4xf32> -> !mirage_block.stensor<8x4xf32>
    %out = output_saver %acc omap <x = 1> : !mirage_block.stensor<8x4xf32> -> tensor<8x8xf32>
    yield %out : tensor<8x8xf32>
  }
  return %o0, %o1 : tensor<8x4xf32>, tensor<8x8xf32>
}

// expected-remark @below {{is equivalent to @ref}}
func.func @no_loop(%x: tensor<8x64xf32>, %w: tensor<64x8xf32>) -> (tensor<8x4xf32>, tensor<8x8xf32>) {
  %o0 = mirage_kernel.reduction %x dim 1 size 4 : tensor<8x64xf32> -> tensor<8x4xf32>
  %o1 = mirage_kernel.graph_def(%X = %x : tensor<8x64xf32>, %W = %w : tensor<64x8xf32>)
      -> tensor<8x8xf32> grid [2, 1, 1] block [32, 1, 1] forloop 1 {
    %xt = input_loader %X imap <> : tensor<8x64xf32> -> !mirage_block.stensor<8x64xf32>
    %wt = input_loader %W imap <x = 1> : tensor<64x8xf32> -> !mirage_block.stensor<64x4xf32>
    %mm = matmul %xt, %wt : !mirage_block.stensor<8x64xf32>, !mirage_block.stensor<64x4xf32> -> !mirage_block.stensor<8x4xf32>
    %out = output_saver %mm omap <x = 1> : !mirage_block.stensor<8x4xf32> -> tensor<8x8xf32>
    yield %out : tensor<8x8xf32>
  }
  return %o0, %o1 : tensor<8x4xf32>, tensor<8x8xf32>
}

// Both outputs from one split graph_def with two results.
// expected-remark @below {{is equivalent to @ref}}
func.func @split_both(%x: tensor<8x64xf32>, %w: tensor<64x8xf32>) -> (tensor<8x4xf32>, tensor<8x8xf32>) {
  %p:2 = mirage_kernel.graph_def(%X = %x : tensor<8x64xf32>, %W = %w : tensor<64x8xf32>)
      -> (tensor<8x16xf32>, tensor<8x32xf32>) grid [1, 4, 1] block [32, 1, 1] forloop 1 {
    %xt = input_loader %X imap <y = 1> : tensor<8x64xf32> -> !mirage_block.stensor<8x16xf32>
    %wt = input_loader %W imap <y = 0> : tensor<64x8xf32> -> !mirage_block.stensor<16x8xf32>
    %r = reduction %xt dim 1 size 4 : !mirage_block.stensor<8x16xf32> -> !mirage_block.stensor<8x4xf32>
    %mm = matmul %xt, %wt : !mirage_block.stensor<8x16xf32>, !mirage_block.stensor<16x8xf32> -> !mirage_block.stensor<8x8xf32>
    %s0 = output_saver %r omap <y = 1> : !mirage_block.stensor<8x4xf32> -> tensor<8x16xf32>
    %s1 = output_saver %mm omap <y = 1> : !mirage_block.stensor<8x8xf32> -> tensor<8x32xf32>
    yield %s0, %s1 : tensor<8x16xf32>, tensor<8x32xf32>
  }
  %o0 = mirage_kernel.reduction %p#0 dim 1 size 4 : tensor<8x16xf32> -> tensor<8x4xf32>
  %o1 = mirage_kernel.reduction %p#1 dim 1 size 8 : tensor<8x32xf32> -> tensor<8x8xf32>
  return %o0, %o1 : tensor<8x4xf32>, tensor<8x8xf32>
}

// o0: forloop_accum sum over the loop, then the strided reduction to 4 after
// the loop: the same as sum_last_to 4.
// expected-remark @below {{is equivalent to @ref}}
func.func @sum_then_post_loop_reduction(%x: tensor<8x64xf32>, %w: tensor<64x8xf32>) -> (tensor<8x4xf32>, tensor<8x8xf32>) {
  %o0 = mirage_kernel.graph_def(%X = %x : tensor<8x64xf32>) -> tensor<8x4xf32> grid [1, 1, 1] block [32, 1, 1] forloop 4 {
    %xt = input_loader %X imap <> fmap 1 : tensor<8x64xf32> -> !mirage_block.stensor<8x16xf32>
    %acc = forloop_accum %xt sum : !mirage_block.stensor<8x16xf32> -> !mirage_block.stensor<8x16xf32>
    %r = reduction %acc dim 1 size 4 : !mirage_block.stensor<8x16xf32> -> !mirage_block.stensor<8x4xf32>
    %out = output_saver %r omap <> : !mirage_block.stensor<8x4xf32> -> tensor<8x4xf32>
    yield %out : tensor<8x4xf32>
  }
  %o1 = mirage_kernel.matmul %x, %w : tensor<8x64xf32>, tensor<64x8xf32> -> tensor<8x8xf32>
  return %o0, %o1 : tensor<8x4xf32>, tensor<8x8xf32>
}
