// RUN: mirage-opt %s --mirage-check-equivalence -verify-diagnostics -o /dev/null
// RUN: mirage-opt %s --mirage-check-equivalence='seed=987654321 trials=3' -verify-diagnostics -o /dev/null

// One matmul C = A B (16x16 each) tiled in different but correct ways: the
// imap/fmap/omap of each graph_def must describe the same function.
// mutants-maps.mlir holds the same reference with one wrong map each.

func.func @ref(%a: tensor<16x16xf32>, %b: tensor<16x16xf32>) -> tensor<16x16xf32> attributes {mirage.reference} {
  %c = mirage_kernel.matmul %a, %b : tensor<16x16xf32>, tensor<16x16xf32> -> tensor<16x16xf32>
  return %c : tensor<16x16xf32>
}

// grid x -> rows of C, grid y -> columns, for-loop over K in 2 chunks.
// expected-remark @below {{is equivalent to @ref}}
func.func @grid_xy(%a: tensor<16x16xf32>, %b: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %c = mirage_kernel.graph_def(%A = %a : tensor<16x16xf32>, %B = %b : tensor<16x16xf32>)
      -> tensor<16x16xf32> grid [2, 2, 1] block [64, 1, 1] forloop 2 {
    %at = input_loader %A imap <x = 0> fmap 1 : tensor<16x16xf32> -> !mirage_block.stensor<8x8xf32>
    %bt = input_loader %B imap <y = 1> fmap 0 : tensor<16x16xf32> -> !mirage_block.stensor<8x8xf32>
    %mm = matmul %at, %bt : !mirage_block.stensor<8x8xf32>, !mirage_block.stensor<8x8xf32> -> !mirage_block.stensor<8x8xf32>
    %acc = forloop_accum %mm sum : !mirage_block.stensor<8x8xf32> -> !mirage_block.stensor<8x8xf32>
    %out = output_saver %acc omap <x = 0, y = 1> : !mirage_block.stensor<8x8xf32> -> tensor<16x16xf32>
    yield %out : tensor<16x16xf32>
  }
  return %c : tensor<16x16xf32>
}

// The grid axes exchanged consistently: y -> rows, x -> columns.
// expected-remark @below {{is equivalent to @ref}}
func.func @grid_yx(%a: tensor<16x16xf32>, %b: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %c = mirage_kernel.graph_def(%A = %a : tensor<16x16xf32>, %B = %b : tensor<16x16xf32>)
      -> tensor<16x16xf32> grid [2, 2, 1] block [64, 1, 1] forloop 2 {
    %at = input_loader %A imap <y = 0> fmap 1 : tensor<16x16xf32> -> !mirage_block.stensor<8x8xf32>
    %bt = input_loader %B imap <x = 1> fmap 0 : tensor<16x16xf32> -> !mirage_block.stensor<8x8xf32>
    %mm = matmul %at, %bt : !mirage_block.stensor<8x8xf32>, !mirage_block.stensor<8x8xf32> -> !mirage_block.stensor<8x8xf32>
    %acc = forloop_accum %mm sum : !mirage_block.stensor<8x8xf32> -> !mirage_block.stensor<8x8xf32>
    %out = output_saver %acc omap <x = 1, y = 0> : !mirage_block.stensor<8x8xf32> -> tensor<16x16xf32>
    yield %out : tensor<16x16xf32>
  }
  return %c : tensor<16x16xf32>
}

// Uneven grid (4 x 2 x 1, with z), 4 loop iterations over K.
// expected-remark @below {{is equivalent to @ref}}
func.func @grid_xz_uneven(%a: tensor<16x16xf32>, %b: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %c = mirage_kernel.graph_def(%A = %a : tensor<16x16xf32>, %B = %b : tensor<16x16xf32>)
      -> tensor<16x16xf32> grid [4, 1, 2] block [64, 1, 1] forloop 4 {
    %at = input_loader %A imap <x = 0> fmap 1 : tensor<16x16xf32> -> !mirage_block.stensor<4x4xf32>
    %bt = input_loader %B imap <z = 1> fmap 0 : tensor<16x16xf32> -> !mirage_block.stensor<4x8xf32>
    %mm = matmul %at, %bt : !mirage_block.stensor<4x4xf32>, !mirage_block.stensor<4x8xf32> -> !mirage_block.stensor<4x8xf32>
    %acc = forloop_accum %mm sum : !mirage_block.stensor<4x8xf32> -> !mirage_block.stensor<4x8xf32>
    %out = output_saver %acc omap <x = 0, z = 1> : !mirage_block.stensor<4x8xf32> -> tensor<16x16xf32>
    yield %out : tensor<16x16xf32>
  }
  return %c : tensor<16x16xf32>
}

// K split over grid y (partials stacked side by side) and over the loop,
// then the strided kernel reduction.
// expected-remark @below {{is equivalent to @ref}}
func.func @split_k_grid_and_loop(%a: tensor<16x16xf32>, %b: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %p = mirage_kernel.graph_def(%A = %a : tensor<16x16xf32>, %B = %b : tensor<16x16xf32>)
      -> tensor<16x32xf32> grid [2, 2, 1] block [64, 1, 1] forloop 2 {
    %at = input_loader %A imap <x = 0, y = 1> fmap 1 : tensor<16x16xf32> -> !mirage_block.stensor<8x4xf32>
    %bt = input_loader %B imap <y = 0> fmap 0 : tensor<16x16xf32> -> !mirage_block.stensor<4x16xf32>
    %mm = matmul %at, %bt : !mirage_block.stensor<8x4xf32>, !mirage_block.stensor<4x16xf32> -> !mirage_block.stensor<8x16xf32>
    %acc = forloop_accum %mm sum : !mirage_block.stensor<8x16xf32> -> !mirage_block.stensor<8x16xf32>
    %out = output_saver %acc omap <x = 0, y = 1> : !mirage_block.stensor<8x16xf32> -> tensor<16x32xf32>
    yield %out : tensor<16x32xf32>
  }
  %c = mirage_kernel.reduction %p dim 1 size 16 : tensor<16x32xf32> -> tensor<16x16xf32>
  return %c : tensor<16x16xf32>
}

// sum_last_to 8 of an 8-wide tile reduces nothing: the same as sum.
// expected-remark @below {{is equivalent to @ref}}
func.func @sum_last_to_full_width(%a: tensor<16x16xf32>, %b: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %c = mirage_kernel.graph_def(%A = %a : tensor<16x16xf32>, %B = %b : tensor<16x16xf32>)
      -> tensor<16x16xf32> grid [2, 2, 1] block [64, 1, 1] forloop 2 {
    %at = input_loader %A imap <x = 0> fmap 1 : tensor<16x16xf32> -> !mirage_block.stensor<8x8xf32>
    %bt = input_loader %B imap <y = 1> fmap 0 : tensor<16x16xf32> -> !mirage_block.stensor<8x8xf32>
    %mm = matmul %at, %bt : !mirage_block.stensor<8x8xf32>, !mirage_block.stensor<8x8xf32> -> !mirage_block.stensor<8x8xf32>
    %acc = forloop_accum %mm sum_last_to 8 : !mirage_block.stensor<8x8xf32> -> !mirage_block.stensor<8x8xf32>
    %out = output_saver %acc omap <x = 0, y = 1> : !mirage_block.stensor<8x8xf32> -> tensor<16x16xf32>
    yield %out : tensor<16x16xf32>
  }
  return %c : tensor<16x16xf32>
}
