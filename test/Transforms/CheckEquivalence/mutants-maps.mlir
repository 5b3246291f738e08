// RUN: mirage-opt %s --mirage-check-equivalence -verify-diagnostics -o /dev/null
// RUN: mirage-opt %s --mirage-check-equivalence='seed=987654321 trials=3' -verify-diagnostics -o /dev/null
// RUN: not mirage-opt %s --mirage-check-equivalence -o /dev/null 2>/dev/null
// (With -verify-diagnostics mirage-opt exits 0 once every expected error is
// seen; the "not" line checks that the pass itself fails.)

// Mutants of a tiled matmul C = A B (16x16 each): each candidate is the
// correct graph_def of equivalent-maps.mlir (@grid_xy: grid x -> rows,
// grid y -> columns, for-loop over K) with one wrong map or op.

func.func @ref(%a: tensor<16x16xf32>, %b: tensor<16x16xf32>) -> tensor<16x16xf32> attributes {mirage.reference} {
  %c = mirage_kernel.matmul %a, %b : tensor<16x16xf32>, tensor<16x16xf32> -> tensor<16x16xf32>
  return %c : tensor<16x16xf32>
}

// A is tiled by grid y instead of x: block (x, y) reads the rows of block (y, x).
// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @wrong_imap_a(%a: tensor<16x16xf32>, %b: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %c = mirage_kernel.graph_def(%A = %a : tensor<16x16xf32>, %B = %b : tensor<16x16xf32>)
      -> tensor<16x16xf32> grid [2, 2, 1] block [64, 1, 1] forloop 2 {
    %at = input_loader %A imap <y = 0> fmap 1 : tensor<16x16xf32> -> !mirage_block.stensor<8x8xf32>
    %bt = input_loader %B imap <y = 1> fmap 0 : tensor<16x16xf32> -> !mirage_block.stensor<8x8xf32>
    %mm = matmul %at, %bt : !mirage_block.stensor<8x8xf32>, !mirage_block.stensor<8x8xf32> -> !mirage_block.stensor<8x8xf32>
    %acc = forloop_accum %mm sum : !mirage_block.stensor<8x8xf32> -> !mirage_block.stensor<8x8xf32>
    %out = output_saver %acc omap <x = 0, y = 1> : !mirage_block.stensor<8x8xf32> -> tensor<16x16xf32>
    yield %out : tensor<16x16xf32>
  }
  return %c : tensor<16x16xf32>
}

// B is tiled by grid x instead of y.
// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @wrong_imap_b(%a: tensor<16x16xf32>, %b: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %c = mirage_kernel.graph_def(%A = %a : tensor<16x16xf32>, %B = %b : tensor<16x16xf32>)
      -> tensor<16x16xf32> grid [2, 2, 1] block [64, 1, 1] forloop 2 {
    %at = input_loader %A imap <x = 0> fmap 1 : tensor<16x16xf32> -> !mirage_block.stensor<8x8xf32>
    %bt = input_loader %B imap <x = 1> fmap 0 : tensor<16x16xf32> -> !mirage_block.stensor<8x8xf32>
    %mm = matmul %at, %bt : !mirage_block.stensor<8x8xf32>, !mirage_block.stensor<8x8xf32> -> !mirage_block.stensor<8x8xf32>
    %acc = forloop_accum %mm sum : !mirage_block.stensor<8x8xf32> -> !mirage_block.stensor<8x8xf32>
    %out = output_saver %acc omap <x = 0, y = 1> : !mirage_block.stensor<8x8xf32> -> tensor<16x16xf32>
    yield %out : tensor<16x16xf32>
  }
  return %c : tensor<16x16xf32>
}

// The output tile is written at the transposed grid position.
// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @transposed_omap(%a: tensor<16x16xf32>, %b: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %c = mirage_kernel.graph_def(%A = %a : tensor<16x16xf32>, %B = %b : tensor<16x16xf32>)
      -> tensor<16x16xf32> grid [2, 2, 1] block [64, 1, 1] forloop 2 {
    %at = input_loader %A imap <x = 0> fmap 1 : tensor<16x16xf32> -> !mirage_block.stensor<8x8xf32>
    %bt = input_loader %B imap <y = 1> fmap 0 : tensor<16x16xf32> -> !mirage_block.stensor<8x8xf32>
    %mm = matmul %at, %bt : !mirage_block.stensor<8x8xf32>, !mirage_block.stensor<8x8xf32> -> !mirage_block.stensor<8x8xf32>
    %acc = forloop_accum %mm sum : !mirage_block.stensor<8x8xf32> -> !mirage_block.stensor<8x8xf32>
    %out = output_saver %acc omap <x = 1, y = 0> : !mirage_block.stensor<8x8xf32> -> tensor<16x16xf32>
    yield %out : tensor<16x16xf32>
  }
  return %c : tensor<16x16xf32>
}

// The roles of imap and fmap exchanged on A (imap <x = 1> fmap 0):
// block x reads column block x of A and walks its rows.
// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @swapped_imap_fmap(%a: tensor<16x16xf32>, %b: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %c = mirage_kernel.graph_def(%A = %a : tensor<16x16xf32>, %B = %b : tensor<16x16xf32>)
      -> tensor<16x16xf32> grid [2, 2, 1] block [64, 1, 1] forloop 2 {
    %at = input_loader %A imap <x = 1> fmap 0 : tensor<16x16xf32> -> !mirage_block.stensor<8x8xf32>
    %bt = input_loader %B imap <y = 1> fmap 0 : tensor<16x16xf32> -> !mirage_block.stensor<8x8xf32>
    %mm = matmul %at, %bt : !mirage_block.stensor<8x8xf32>, !mirage_block.stensor<8x8xf32> -> !mirage_block.stensor<8x8xf32>
    %acc = forloop_accum %mm sum : !mirage_block.stensor<8x8xf32> -> !mirage_block.stensor<8x8xf32>
    %out = output_saver %acc omap <x = 0, y = 1> : !mirage_block.stensor<8x8xf32> -> tensor<16x16xf32>
    yield %out : tensor<16x16xf32>
  }
  return %c : tensor<16x16xf32>
}

// B has no fmap; its K rows are fixed by grid x instead of following
// the loop, so each block multiplies every K-chunk of A by one chunk of B.
// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @missing_fmap_on_b(%a: tensor<16x16xf32>, %b: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %c = mirage_kernel.graph_def(%A = %a : tensor<16x16xf32>, %B = %b : tensor<16x16xf32>)
      -> tensor<16x16xf32> grid [2, 2, 1] block [64, 1, 1] forloop 2 {
    %at = input_loader %A imap <x = 0> fmap 1 : tensor<16x16xf32> -> !mirage_block.stensor<8x8xf32>
    %bt = input_loader %B imap <x = 0, y = 1> : tensor<16x16xf32> -> !mirage_block.stensor<8x8xf32>
    %mm = matmul %at, %bt : !mirage_block.stensor<8x8xf32>, !mirage_block.stensor<8x8xf32> -> !mirage_block.stensor<8x8xf32>
    %acc = forloop_accum %mm sum : !mirage_block.stensor<8x8xf32> -> !mirage_block.stensor<8x8xf32>
    %out = output_saver %acc omap <x = 0, y = 1> : !mirage_block.stensor<8x8xf32> -> tensor<16x16xf32>
    yield %out : tensor<16x16xf32>
  }
  return %c : tensor<16x16xf32>
}

// max instead of sum over the loop.
// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @accum_max(%a: tensor<16x16xf32>, %b: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %c = mirage_kernel.graph_def(%A = %a : tensor<16x16xf32>, %B = %b : tensor<16x16xf32>)
      -> tensor<16x16xf32> grid [2, 2, 1] block [64, 1, 1] forloop 2 {
    %at = input_loader %A imap <x = 0> fmap 1 : tensor<16x16xf32> -> !mirage_block.stensor<8x8xf32>
    %bt = input_loader %B imap <y = 1> fmap 0 : tensor<16x16xf32> -> !mirage_block.stensor<8x8xf32>
    %mm = matmul %at, %bt : !mirage_block.stensor<8x8xf32>, !mirage_block.stensor<8x8xf32> -> !mirage_block.stensor<8x8xf32>
    %acc = forloop_accum %mm max : !mirage_block.stensor<8x8xf32> -> !mirage_block.stensor<8x8xf32>
    %out = output_saver %acc omap <x = 0, y = 1> : !mirage_block.stensor<8x8xf32> -> tensor<16x16xf32>
    yield %out : tensor<16x16xf32>
  }
  return %c : tensor<16x16xf32>
}

// Block matmul with swapped (square) operands: B_i A_i.
// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @swapped_block_matmul(%a: tensor<16x16xf32>, %b: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %c = mirage_kernel.graph_def(%A = %a : tensor<16x16xf32>, %B = %b : tensor<16x16xf32>)
      -> tensor<16x16xf32> grid [2, 2, 1] block [64, 1, 1] forloop 2 {
    %at = input_loader %A imap <x = 0> fmap 1 : tensor<16x16xf32> -> !mirage_block.stensor<8x8xf32>
    %bt = input_loader %B imap <y = 1> fmap 0 : tensor<16x16xf32> -> !mirage_block.stensor<8x8xf32>
    %mm = matmul %bt, %at : !mirage_block.stensor<8x8xf32>, !mirage_block.stensor<8x8xf32> -> !mirage_block.stensor<8x8xf32>
    %acc = forloop_accum %mm sum : !mirage_block.stensor<8x8xf32> -> !mirage_block.stensor<8x8xf32>
    %out = output_saver %acc omap <x = 0, y = 1> : !mirage_block.stensor<8x8xf32> -> tensor<16x16xf32>
    yield %out : tensor<16x16xf32>
  }
  return %c : tensor<16x16xf32>
}

// Kernel level: swapped operands, B A.
// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @swapped_kernel_matmul(%a: tensor<16x16xf32>, %b: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %c = mirage_kernel.matmul %b, %a : tensor<16x16xf32>, tensor<16x16xf32> -> tensor<16x16xf32>
  return %c : tensor<16x16xf32>
}

// Split-K partials written at transposed grid positions (omap <x = 1, y = 0>
// instead of <x = 0, y = 1>): the strided reduction then sums over row
// blocks instead of K-halves.
// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @split_k_transposed_partials(%a: tensor<16x16xf32>, %b: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %p = mirage_kernel.graph_def(%A = %a : tensor<16x16xf32>, %B = %b : tensor<16x16xf32>)
      -> tensor<16x32xf32> grid [2, 2, 1] block [64, 1, 1] forloop 2 {
    %at = input_loader %A imap <x = 0, y = 1> fmap 1 : tensor<16x16xf32> -> !mirage_block.stensor<8x4xf32>
    %bt = input_loader %B imap <y = 0> fmap 0 : tensor<16x16xf32> -> !mirage_block.stensor<4x16xf32>
    %mm = matmul %at, %bt : !mirage_block.stensor<8x4xf32>, !mirage_block.stensor<4x16xf32> -> !mirage_block.stensor<8x16xf32>
    %acc = forloop_accum %mm sum : !mirage_block.stensor<8x16xf32> -> !mirage_block.stensor<8x16xf32>
    %out = output_saver %acc omap <x = 1, y = 0> : !mirage_block.stensor<8x16xf32> -> tensor<16x32xf32>
    yield %out : tensor<16x32xf32>
  }
  %c = mirage_kernel.reduction %p dim 1 size 16 : tensor<16x32xf32> -> tensor<16x16xf32>
  return %c : tensor<16x16xf32>
}

// Split-K partials placed correctly but reduced to the wrong size: size 8
// adds columns j and j+8 of the same partial (then duplicated to 16 columns).
// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @split_k_wrong_reduction_size(%a: tensor<16x16xf32>, %b: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %p = mirage_kernel.graph_def(%A = %a : tensor<16x16xf32>, %B = %b : tensor<16x16xf32>)
      -> tensor<16x32xf32> grid [2, 2, 1] block [64, 1, 1] forloop 2 {
    %at = input_loader %A imap <x = 0, y = 1> fmap 1 : tensor<16x16xf32> -> !mirage_block.stensor<8x4xf32>
    %bt = input_loader %B imap <y = 0> fmap 0 : tensor<16x16xf32> -> !mirage_block.stensor<4x16xf32>
    %mm = matmul %at, %bt : !mirage_block.stensor<8x4xf32>, !mirage_block.stensor<4x16xf32> -> !mirage_block.stensor<8x16xf32>
    %acc = forloop_accum %mm sum : !mirage_block.stensor<8x16xf32> -> !mirage_block.stensor<8x16xf32>
    %out = output_saver %acc omap <x = 0, y = 1> : !mirage_block.stensor<8x16xf32> -> tensor<16x32xf32>
    yield %out : tensor<16x32xf32>
  }
  %r = mirage_kernel.reduction %p dim 1 size 8 : tensor<16x32xf32> -> tensor<16x8xf32>
  %c = mirage_kernel.concat %r, %r dim 1 : tensor<16x8xf32>, tensor<16x8xf32> -> tensor<16x16xf32>
  return %c : tensor<16x16xf32>
}
