// RUN: mirage-opt %s --mirage-check-equivalence -verify-diagnostics -o /dev/null
// RUN: mirage-opt %s --mirage-check-equivalence='seed=987654321 trials=3' -verify-diagnostics -o /dev/null

// LoRA: O = X W + (X A) B,  X 8x32, W 32x16, A 32x4, B 4x16.

func.func @ref(%x: tensor<8x32xf32>, %w: tensor<32x16xf32>, %a: tensor<32x4xf32>, %b: tensor<4x16xf32>) -> tensor<8x16xf32>
    attributes {mirage.reference} {
  %xw = mirage_kernel.matmul %x, %w : tensor<8x32xf32>, tensor<32x16xf32> -> tensor<8x16xf32>
  %xa = mirage_kernel.matmul %x, %a : tensor<8x32xf32>, tensor<32x4xf32> -> tensor<8x4xf32>
  %xab = mirage_kernel.matmul %xa, %b : tensor<8x4xf32>, tensor<4x16xf32> -> tensor<8x16xf32>
  %o = mirage_kernel.add %xw, %xab : tensor<8x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
  return %o : tensor<8x16xf32>
}

// Matmul associativity: (X A) B = X (A B).
// expected-remark @below {{is equivalent to @ref}}
func.func @associativity(%x: tensor<8x32xf32>, %w: tensor<32x16xf32>, %a: tensor<32x4xf32>, %b: tensor<4x16xf32>) -> tensor<8x16xf32> {
  %xw = mirage_kernel.matmul %x, %w : tensor<8x32xf32>, tensor<32x16xf32> -> tensor<8x16xf32>
  %ab = mirage_kernel.matmul %a, %b : tensor<32x4xf32>, tensor<4x16xf32> -> tensor<32x16xf32>
  %xab = mirage_kernel.matmul %x, %ab : tensor<8x32xf32>, tensor<32x16xf32> -> tensor<8x16xf32>
  %o = mirage_kernel.add %xab, %xw : tensor<8x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
  return %o : tensor<8x16xf32>
}

// Associativity and distributivity: X (W + A B).
// expected-remark @below {{is equivalent to @ref}}
func.func @merged_weight(%x: tensor<8x32xf32>, %w: tensor<32x16xf32>, %a: tensor<32x4xf32>, %b: tensor<4x16xf32>) -> tensor<8x16xf32> {
  %ab = mirage_kernel.matmul %a, %b : tensor<32x4xf32>, tensor<4x16xf32> -> tensor<32x16xf32>
  %wab = mirage_kernel.add %w, %ab : tensor<32x16xf32>, tensor<32x16xf32> -> tensor<32x16xf32>
  %o = mirage_kernel.matmul %x, %wab : tensor<8x32xf32>, tensor<32x16xf32> -> tensor<8x16xf32>
  return %o : tensor<8x16xf32>
}

// The paper's LoRA trick: one matmul of concatenations, [X, XA] [W; B].
// expected-remark @below {{is equivalent to @ref}}
func.func @concat_matmul(%x: tensor<8x32xf32>, %w: tensor<32x16xf32>, %a: tensor<32x4xf32>, %b: tensor<4x16xf32>) -> tensor<8x16xf32> {
  %xa = mirage_kernel.matmul %x, %a : tensor<8x32xf32>, tensor<32x4xf32> -> tensor<8x4xf32>
  %lhs = mirage_kernel.concat %x, %xa dim 1 : tensor<8x32xf32>, tensor<8x4xf32> -> tensor<8x36xf32>
  %rhs = mirage_kernel.concat %w, %b dim 0 : tensor<32x16xf32>, tensor<4x16xf32> -> tensor<36x16xf32>
  %o = mirage_kernel.matmul %lhs, %rhs : tensor<8x36xf32>, tensor<36x16xf32> -> tensor<8x16xf32>
  return %o : tensor<8x16xf32>
}

// Fused in one graph_def: grid x splits the 16 output columns in 2; the
// for-loop walks K (32) in 2 chunks; X W and X A accumulate in the loop;
// (X A) B and the add run after it (B is a loop-invariant load).
// expected-remark @below {{is equivalent to @ref}}
func.func @fused(%x: tensor<8x32xf32>, %w: tensor<32x16xf32>, %a: tensor<32x4xf32>, %b: tensor<4x16xf32>) -> tensor<8x16xf32> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<8x32xf32>, %W = %w : tensor<32x16xf32>,
                               %A = %a : tensor<32x4xf32>, %B = %b : tensor<4x16xf32>)
      -> tensor<8x16xf32> grid [2, 1, 1] block [128, 1, 1] forloop 2 {
    %xt = input_loader %X imap <> fmap 1 : tensor<8x32xf32> -> !mirage_block.stensor<8x16xf32>
    %wt = input_loader %W imap <x = 1> fmap 0 : tensor<32x16xf32> -> !mirage_block.stensor<16x8xf32>
    %at = input_loader %A imap <> fmap 0 : tensor<32x4xf32> -> !mirage_block.stensor<16x4xf32>
    %bt = input_loader %B imap <x = 1> : tensor<4x16xf32> -> !mirage_block.stensor<4x8xf32>
    %xw = matmul %xt, %wt : !mirage_block.stensor<8x16xf32>, !mirage_block.stensor<16x8xf32> -> !mirage_block.stensor<8x8xf32>
    %xa = matmul %xt, %at : !mirage_block.stensor<8x16xf32>, !mirage_block.stensor<16x4xf32> -> !mirage_block.stensor<8x4xf32>
    %acc_xw = forloop_accum %xw sum : !mirage_block.stensor<8x8xf32> -> !mirage_block.stensor<8x8xf32>
    %acc_xa = forloop_accum %xa sum : !mirage_block.stensor<8x4xf32> -> !mirage_block.stensor<8x4xf32>
    %xab = matmul %acc_xa, %bt : !mirage_block.stensor<8x4xf32>, !mirage_block.stensor<4x8xf32> -> !mirage_block.stensor<8x8xf32>
    %y = add %acc_xw, %xab : !mirage_block.stensor<8x8xf32>, !mirage_block.stensor<8x8xf32> -> !mirage_block.stensor<8x8xf32>
    %out = output_saver %y omap <x = 1> : !mirage_block.stensor<8x8xf32> -> tensor<8x16xf32>
    yield %out : tensor<8x16xf32>
  }
  return %o : tensor<8x16xf32>
}

// Fused with a concat inside the block graph: A B is precomputed by a kernel
// matmul; iteration i multiplies [X_i, X_i] by [W_i; (A B)_i], which is
// X_i W_i + X_i (A B)_i, and the loop sums these over the 4 chunks of K.
// expected-remark @below {{is equivalent to @ref}}
func.func @fused_concat_in_loop(%x: tensor<8x32xf32>, %w: tensor<32x16xf32>, %a: tensor<32x4xf32>, %b: tensor<4x16xf32>) -> tensor<8x16xf32> {
  %ab = mirage_kernel.matmul %a, %b : tensor<32x4xf32>, tensor<4x16xf32> -> tensor<32x16xf32>
  %o = mirage_kernel.graph_def(%X = %x : tensor<8x32xf32>, %W = %w : tensor<32x16xf32>, %AB = %ab : tensor<32x16xf32>)
      -> tensor<8x16xf32> grid [2, 1, 1] block [128, 1, 1] forloop 4 {
    %xt = input_loader %X imap <> fmap 1 : tensor<8x32xf32> -> !mirage_block.stensor<8x8xf32>
    %wt = input_loader %W imap <x = 1> fmap 0 : tensor<32x16xf32> -> !mirage_block.stensor<8x8xf32>
    %abt = input_loader %AB imap <x = 1> fmap 0 : tensor<32x16xf32> -> !mirage_block.stensor<8x8xf32>
    %lhs = concat %xt, %xt dim 1 : !mirage_block.stensor<8x8xf32>, !mirage_block.stensor<8x8xf32> -> !mirage_block.stensor<8x16xf32>
    %rhs = concat %wt, %abt dim 0 : !mirage_block.stensor<8x8xf32>, !mirage_block.stensor<8x8xf32> -> !mirage_block.stensor<16x8xf32>
    %mm = matmul %lhs, %rhs : !mirage_block.stensor<8x16xf32>, !mirage_block.stensor<16x8xf32> -> !mirage_block.stensor<8x8xf32>
    %acc = forloop_accum %mm sum : !mirage_block.stensor<8x8xf32> -> !mirage_block.stensor<8x8xf32>
    %out = output_saver %acc omap <x = 1> : !mirage_block.stensor<8x8xf32> -> tensor<8x16xf32>
    yield %out : tensor<8x16xf32>
  }
  return %o : tensor<8x16xf32>
}

// The LoRA product (X_i A_i) B computed inside the loop and accumulated
// together with X_i W_i (linearity: sum_i (X_i A_i) B = (X A) B).
// expected-remark @below {{is equivalent to @ref}}
func.func @fused_b_in_loop(%x: tensor<8x32xf32>, %w: tensor<32x16xf32>, %a: tensor<32x4xf32>, %b: tensor<4x16xf32>) -> tensor<8x16xf32> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<8x32xf32>, %W = %w : tensor<32x16xf32>,
                               %A = %a : tensor<32x4xf32>, %B = %b : tensor<4x16xf32>)
      -> tensor<8x16xf32> grid [2, 1, 1] block [128, 1, 1] forloop 2 {
    %xt = input_loader %X imap <> fmap 1 : tensor<8x32xf32> -> !mirage_block.stensor<8x16xf32>
    %wt = input_loader %W imap <x = 1> fmap 0 : tensor<32x16xf32> -> !mirage_block.stensor<16x8xf32>
    %at = input_loader %A imap <> fmap 0 : tensor<32x4xf32> -> !mirage_block.stensor<16x4xf32>
    %bt = input_loader %B imap <x = 1> : tensor<4x16xf32> -> !mirage_block.stensor<4x8xf32>
    %xw = matmul %xt, %wt : !mirage_block.stensor<8x16xf32>, !mirage_block.stensor<16x8xf32> -> !mirage_block.stensor<8x8xf32>
    %xa = matmul %xt, %at : !mirage_block.stensor<8x16xf32>, !mirage_block.stensor<16x4xf32> -> !mirage_block.stensor<8x4xf32>
    %xab = matmul %xa, %bt : !mirage_block.stensor<8x4xf32>, !mirage_block.stensor<4x8xf32> -> !mirage_block.stensor<8x8xf32>
    %t = add %xw, %xab : !mirage_block.stensor<8x8xf32>, !mirage_block.stensor<8x8xf32> -> !mirage_block.stensor<8x8xf32>
    %acc = forloop_accum %t sum : !mirage_block.stensor<8x8xf32> -> !mirage_block.stensor<8x8xf32>
    %out = output_saver %acc omap <x = 1> : !mirage_block.stensor<8x8xf32> -> tensor<8x16xf32>
    yield %out : tensor<8x16xf32>
  }
  return %o : tensor<8x16xf32>
}
