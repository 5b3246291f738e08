// RUN: mirage-opt %s --mirage-check-equivalence -verify-diagnostics -o /dev/null
// RUN: mirage-opt %s --mirage-check-equivalence='seed=987654321 trials=3' -verify-diagnostics -o /dev/null
// RUN: not mirage-opt %s --mirage-check-equivalence -o /dev/null 2>/dev/null

// Single-mistake mutants of LoRA, O = X W + (X A) B (X 8x32, W 32x16, A 32x4,
// B 4x16), built from the correct graphs of equivalent-lora.mlir.

func.func @ref(%x: tensor<8x32xf32>, %w: tensor<32x16xf32>, %a: tensor<32x4xf32>, %b: tensor<4x16xf32>) -> tensor<8x16xf32>
    attributes {mirage.reference} {
  %xw = mirage_kernel.matmul %x, %w : tensor<8x32xf32>, tensor<32x16xf32> -> tensor<8x16xf32>
  %xa = mirage_kernel.matmul %x, %a : tensor<8x32xf32>, tensor<32x4xf32> -> tensor<8x4xf32>
  %xab = mirage_kernel.matmul %xa, %b : tensor<8x4xf32>, tensor<4x16xf32> -> tensor<8x16xf32>
  %o = mirage_kernel.add %xw, %xab : tensor<8x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
  return %o : tensor<8x16xf32>
}

// The X W accumulator is computed but left out of the sum: (X A) B only.
// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @missing_xw_term(%x: tensor<8x32xf32>, %w: tensor<32x16xf32>, %a: tensor<32x4xf32>, %b: tensor<4x16xf32>) -> tensor<8x16xf32> {
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
    %out = output_saver %xab omap <x = 1> : !mirage_block.stensor<8x8xf32> -> tensor<8x16xf32>
    yield %out : tensor<8x16xf32>
  }
  return %o : tensor<8x16xf32>
}

// X W - (X A) B instead of X W + (X A) B.
// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @sub_instead_of_add(%x: tensor<8x32xf32>, %w: tensor<32x16xf32>, %a: tensor<32x4xf32>, %b: tensor<4x16xf32>) -> tensor<8x16xf32> {
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
    %y = sub %acc_xw, %xab : !mirage_block.stensor<8x8xf32>, !mirage_block.stensor<8x8xf32> -> !mirage_block.stensor<8x8xf32>
    %out = output_saver %y omap <x = 1> : !mirage_block.stensor<8x8xf32> -> tensor<8x16xf32>
    yield %out : tensor<8x16xf32>
  }
  return %o : tensor<8x16xf32>
}

// forloop_accum max instead of sum for X A.
// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @xa_accum_max(%x: tensor<8x32xf32>, %w: tensor<32x16xf32>, %a: tensor<32x4xf32>, %b: tensor<4x16xf32>) -> tensor<8x16xf32> {
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
    %acc_xa = forloop_accum %xa max : !mirage_block.stensor<8x4xf32> -> !mirage_block.stensor<8x4xf32>
    %xab = matmul %acc_xa, %bt : !mirage_block.stensor<8x4xf32>, !mirage_block.stensor<4x8xf32> -> !mirage_block.stensor<8x8xf32>
    %y = add %acc_xw, %xab : !mirage_block.stensor<8x8xf32>, !mirage_block.stensor<8x8xf32> -> !mirage_block.stensor<8x8xf32>
    %out = output_saver %y omap <x = 1> : !mirage_block.stensor<8x8xf32> -> tensor<8x16xf32>
    yield %out : tensor<8x16xf32>
  }
  return %o : tensor<8x16xf32>
}

// concat(X A, X) with concat(W, B): the operands of the left concat swapped.
// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @wrong_concat_order(%x: tensor<8x32xf32>, %w: tensor<32x16xf32>, %a: tensor<32x4xf32>, %b: tensor<4x16xf32>) -> tensor<8x16xf32> {
  %xa = mirage_kernel.matmul %x, %a : tensor<8x32xf32>, tensor<32x4xf32> -> tensor<8x4xf32>
  %lhs = mirage_kernel.concat %xa, %x dim 1 : tensor<8x4xf32>, tensor<8x32xf32> -> tensor<8x36xf32>
  %rhs = mirage_kernel.concat %w, %b dim 0 : tensor<32x16xf32>, tensor<4x16xf32> -> tensor<36x16xf32>
  %o = mirage_kernel.matmul %lhs, %rhs : tensor<8x36xf32>, tensor<36x16xf32> -> tensor<8x16xf32>
  return %o : tensor<8x16xf32>
}

// The LoRA term replaced by a second X W: X W + X W.
// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @double_xw(%x: tensor<8x32xf32>, %w: tensor<32x16xf32>, %a: tensor<32x4xf32>, %b: tensor<4x16xf32>) -> tensor<8x16xf32> {
  %xw = mirage_kernel.matmul %x, %w : tensor<8x32xf32>, tensor<32x16xf32> -> tensor<8x16xf32>
  %o = mirage_kernel.add %xw, %xw : tensor<8x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
  return %o : tensor<8x16xf32>
}
