// RUN: mirage-opt %s --mirage-check-equivalence -verify-diagnostics -o /dev/null
// RUN: mirage-opt %s --mirage-check-equivalence='seed=987654321 trials=3' -verify-diagnostics -o /dev/null

// Gated MLP: O = silu(X W1) * (X W2),  X 8x32, W1 32x16, W2 32x16.

func.func @ref(%x: tensor<8x32xf32>, %w1: tensor<32x16xf32>, %w2: tensor<32x16xf32>) -> tensor<8x16xf32>
    attributes {mirage.reference} {
  %a = mirage_kernel.matmul %x, %w1 : tensor<8x32xf32>, tensor<32x16xf32> -> tensor<8x16xf32>
  %b = mirage_kernel.matmul %x, %w2 : tensor<8x32xf32>, tensor<32x16xf32> -> tensor<8x16xf32>
  %s = mirage_kernel.silu %a : tensor<8x16xf32>
  %o = mirage_kernel.mul %s, %b : tensor<8x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
  return %o : tensor<8x16xf32>
}

// One graph_def: grid x splits the 16 output columns in 2, the for-loop walks
// K in 2 chunks of 16; both matmuls accumulate in the loop, silu and mul run
// once after it.
// expected-remark @below {{is equivalent to @ref}}
func.func @fused(%x: tensor<8x32xf32>, %w1: tensor<32x16xf32>, %w2: tensor<32x16xf32>) -> tensor<8x16xf32> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<8x32xf32>, %W1 = %w1 : tensor<32x16xf32>, %W2 = %w2 : tensor<32x16xf32>)
      -> tensor<8x16xf32> grid [2, 1, 1] block [128, 1, 1] forloop 2 {
    %xt = input_loader %X imap <> fmap 1 : tensor<8x32xf32> -> !mirage_block.stensor<8x16xf32>
    %w1t = input_loader %W1 imap <x = 1> fmap 0 : tensor<32x16xf32> -> !mirage_block.stensor<16x8xf32>
    %w2t = input_loader %W2 imap <x = 1> fmap 0 : tensor<32x16xf32> -> !mirage_block.stensor<16x8xf32>
    %m1 = matmul %xt, %w1t : !mirage_block.stensor<8x16xf32>, !mirage_block.stensor<16x8xf32> -> !mirage_block.stensor<8x8xf32>
    %m2 = matmul %xt, %w2t : !mirage_block.stensor<8x16xf32>, !mirage_block.stensor<16x8xf32> -> !mirage_block.stensor<8x8xf32>
    %a1 = forloop_accum %m1 sum : !mirage_block.stensor<8x8xf32> -> !mirage_block.stensor<8x8xf32>
    %a2 = forloop_accum %m2 sum : !mirage_block.stensor<8x8xf32> -> !mirage_block.stensor<8x8xf32>
    %s = silu %a1 : !mirage_block.stensor<8x8xf32>
    %y = mul %s, %a2 : !mirage_block.stensor<8x8xf32>, !mirage_block.stensor<8x8xf32> -> !mirage_block.stensor<8x8xf32>
    %out = output_saver %y omap <x = 1> : !mirage_block.stensor<8x8xf32> -> tensor<8x16xf32>
    yield %out : tensor<8x16xf32>
  }
  return %o : tensor<8x16xf32>
}

// The same with the epilogue (silu, mul) fused into a thread_graph, and a
// 2-D grid (y splits the rows).
// expected-remark @below {{is equivalent to @ref}}
func.func @fused_thread_graph_epilogue(%x: tensor<8x32xf32>, %w1: tensor<32x16xf32>, %w2: tensor<32x16xf32>) -> tensor<8x16xf32> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<8x32xf32>, %W1 = %w1 : tensor<32x16xf32>, %W2 = %w2 : tensor<32x16xf32>)
      -> tensor<8x16xf32> grid [2, 2, 1] block [128, 1, 1] forloop 4 {
    %xt = input_loader %X imap <y = 0> fmap 1 : tensor<8x32xf32> -> !mirage_block.stensor<4x8xf32>
    %w1t = input_loader %W1 imap <x = 1> fmap 0 : tensor<32x16xf32> -> !mirage_block.stensor<8x8xf32>
    %w2t = input_loader %W2 imap <x = 1> fmap 0 : tensor<32x16xf32> -> !mirage_block.stensor<8x8xf32>
    %m1 = matmul %xt, %w1t : !mirage_block.stensor<4x8xf32>, !mirage_block.stensor<8x8xf32> -> !mirage_block.stensor<4x8xf32>
    %m2 = matmul %xt, %w2t : !mirage_block.stensor<4x8xf32>, !mirage_block.stensor<8x8xf32> -> !mirage_block.stensor<4x8xf32>
    %a1 = forloop_accum %m1 sum : !mirage_block.stensor<4x8xf32> -> !mirage_block.stensor<4x8xf32>
    %a2 = forloop_accum %m2 sum : !mirage_block.stensor<4x8xf32> -> !mirage_block.stensor<4x8xf32>
    %y = thread_graph %a1, %a2 : !mirage_block.stensor<4x8xf32>, !mirage_block.stensor<4x8xf32> -> !mirage_block.stensor<4x8xf32> {
    ^bb0(%p: f32, %q: f32):
      %s = silu %p : f32
      %r = mul %s, %q : f32
      yield %r : f32
    }
    %out = output_saver %y omap <x = 1, y = 0> : !mirage_block.stensor<4x8xf32> -> tensor<8x16xf32>
    yield %out : tensor<8x16xf32>
  }
  return %o : tensor<8x16xf32>
}

// Both weights in one matmul: X [W1 | W2] (concat along columns), then the
// two halves split with chunk.
// expected-remark @below {{is equivalent to @ref}}
func.func @concat_weights(%x: tensor<8x32xf32>, %w1: tensor<32x16xf32>, %w2: tensor<32x16xf32>) -> tensor<8x16xf32> {
  %w = mirage_kernel.concat %w1, %w2 dim 1 : tensor<32x16xf32>, tensor<32x16xf32> -> tensor<32x32xf32>
  %ab = mirage_kernel.matmul %x, %w : tensor<8x32xf32>, tensor<32x32xf32> -> tensor<8x32xf32>
  %a, %b = mirage_kernel.chunk %ab dim 1 parts 2 : tensor<8x32xf32> -> tensor<8x16xf32>, tensor<8x16xf32>
  %s = mirage_kernel.silu %a : tensor<8x16xf32>
  %o = mirage_kernel.mul %b, %s : tensor<8x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
  return %o : tensor<8x16xf32>
}
