// RUN: mirage-opt %s --mirage-check-equivalence -verify-diagnostics -o /dev/null
// RUN: mirage-opt %s --mirage-check-equivalence='seed=987654321 trials=3' -verify-diagnostics -o /dev/null

// A thread_graph is an elementwise map over tiles (docs/LanguageReference.md, "Thread
// graphs"): fusing a
// chain of block elementwise ops into one thread_graph must not change the
// function. The reference is the unfused chain, in a graph_def of 2 blocks:
//   y = exp(a * b + r) - silu(a)      (r: 8x1, broadcast along the row)

func.func @ref(%a: tensor<8x16xf32>, %b: tensor<8x16xf32>, %r: tensor<8x1xf32>) -> tensor<8x16xf32>
    attributes {mirage.reference} {
  %o = mirage_kernel.graph_def(%A = %a : tensor<8x16xf32>, %B = %b : tensor<8x16xf32>, %R = %r : tensor<8x1xf32>)
      -> tensor<8x16xf32> grid [2, 1, 1] block [32, 1, 1] forloop 1 {
    %at = input_loader %A imap <x = 0> : tensor<8x16xf32> -> !mirage_block.stensor<4x16xf32>
    %bt = input_loader %B imap <x = 0> : tensor<8x16xf32> -> !mirage_block.stensor<4x16xf32>
    %rt = input_loader %R imap <x = 0> : tensor<8x1xf32> -> !mirage_block.stensor<4x1xf32>
    %m = mul %at, %bt : !mirage_block.stensor<4x16xf32>, !mirage_block.stensor<4x16xf32> -> !mirage_block.stensor<4x16xf32>
    %s = add %m, %rt : !mirage_block.stensor<4x16xf32>, !mirage_block.stensor<4x1xf32> -> !mirage_block.stensor<4x16xf32>
    %e = exp %s : !mirage_block.stensor<4x16xf32>
    %g = silu %at : !mirage_block.stensor<4x16xf32>
    %y = sub %e, %g : !mirage_block.stensor<4x16xf32>, !mirage_block.stensor<4x16xf32> -> !mirage_block.stensor<4x16xf32>
    %out = output_saver %y omap <x = 0> : !mirage_block.stensor<4x16xf32> -> tensor<8x16xf32>
    yield %out : tensor<8x16xf32>
  }
  return %o : tensor<8x16xf32>
}

// The same chain as kernel ops (no graph_def at all).
// expected-remark @below {{is equivalent to @ref}}
func.func @kernel_ops(%a: tensor<8x16xf32>, %b: tensor<8x16xf32>, %r: tensor<8x1xf32>) -> tensor<8x16xf32> {
  %m = mirage_kernel.mul %a, %b : tensor<8x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
  %s = mirage_kernel.add %m, %r : tensor<8x16xf32>, tensor<8x1xf32> -> tensor<8x16xf32>
  %e = mirage_kernel.exp %s : tensor<8x16xf32>
  %g = mirage_kernel.silu %a : tensor<8x16xf32>
  %y = mirage_kernel.sub %e, %g : tensor<8x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}

// Only the unary tail (exp) in a thread_graph.
// expected-remark @below {{is equivalent to @ref}}
func.func @thread_graph_unary(%a: tensor<8x16xf32>, %b: tensor<8x16xf32>, %r: tensor<8x1xf32>) -> tensor<8x16xf32> {
  %o = mirage_kernel.graph_def(%A = %a : tensor<8x16xf32>, %B = %b : tensor<8x16xf32>, %R = %r : tensor<8x1xf32>)
      -> tensor<8x16xf32> grid [2, 1, 1] block [32, 1, 1] forloop 1 {
    %at = input_loader %A imap <x = 0> : tensor<8x16xf32> -> !mirage_block.stensor<4x16xf32>
    %bt = input_loader %B imap <x = 0> : tensor<8x16xf32> -> !mirage_block.stensor<4x16xf32>
    %rt = input_loader %R imap <x = 0> : tensor<8x1xf32> -> !mirage_block.stensor<4x1xf32>
    %m = mul %at, %bt : !mirage_block.stensor<4x16xf32>, !mirage_block.stensor<4x16xf32> -> !mirage_block.stensor<4x16xf32>
    %s = add %m, %rt : !mirage_block.stensor<4x16xf32>, !mirage_block.stensor<4x1xf32> -> !mirage_block.stensor<4x16xf32>
    %e = thread_graph %s : !mirage_block.stensor<4x16xf32> -> !mirage_block.stensor<4x16xf32> {
    ^bb0(%x: f32):
      %ex = exp %x : f32
      yield %ex : f32
    }
    %g = silu %at : !mirage_block.stensor<4x16xf32>
    %y = sub %e, %g : !mirage_block.stensor<4x16xf32>, !mirage_block.stensor<4x16xf32> -> !mirage_block.stensor<4x16xf32>
    %out = output_saver %y omap <x = 0> : !mirage_block.stensor<4x16xf32> -> tensor<8x16xf32>
    yield %out : tensor<8x16xf32>
  }
  return %o : tensor<8x16xf32>
}

// The whole chain in one thread_graph; %r is broadcast along the row.
// expected-remark @below {{is equivalent to @ref}}
func.func @thread_graph_whole_chain(%a: tensor<8x16xf32>, %b: tensor<8x16xf32>, %r: tensor<8x1xf32>) -> tensor<8x16xf32> {
  %o = mirage_kernel.graph_def(%A = %a : tensor<8x16xf32>, %B = %b : tensor<8x16xf32>, %R = %r : tensor<8x1xf32>)
      -> tensor<8x16xf32> grid [2, 1, 1] block [32, 1, 1] forloop 1 {
    %at = input_loader %A imap <x = 0> : tensor<8x16xf32> -> !mirage_block.stensor<4x16xf32>
    %bt = input_loader %B imap <x = 0> : tensor<8x16xf32> -> !mirage_block.stensor<4x16xf32>
    %rt = input_loader %R imap <x = 0> : tensor<8x1xf32> -> !mirage_block.stensor<4x1xf32>
    %y = thread_graph %at, %bt, %rt : !mirage_block.stensor<4x16xf32>, !mirage_block.stensor<4x16xf32>, !mirage_block.stensor<4x1xf32>
        -> !mirage_block.stensor<4x16xf32> {
    ^bb0(%x: f32, %w: f32, %z: f32):
      %m = mul %x, %w : f32
      %s = add %m, %z : f32
      %e = exp %s : f32
      %g = silu %x : f32
      %d = sub %e, %g : f32
      yield %d : f32
    }
    %out = output_saver %y omap <x = 0> : !mirage_block.stensor<4x16xf32> -> tensor<8x16xf32>
    yield %out : tensor<8x16xf32>
  }
  return %o : tensor<8x16xf32>
}

// A prologue thread_graph with two results (a*b + r and silu(a)) and the
// rest as block ops.
// expected-remark @below {{is equivalent to @ref}}
func.func @thread_graph_two_results(%a: tensor<8x16xf32>, %b: tensor<8x16xf32>, %r: tensor<8x1xf32>) -> tensor<8x16xf32> {
  %o = mirage_kernel.graph_def(%A = %a : tensor<8x16xf32>, %B = %b : tensor<8x16xf32>, %R = %r : tensor<8x1xf32>)
      -> tensor<8x16xf32> grid [2, 1, 1] block [32, 1, 1] forloop 1 {
    %at = input_loader %A imap <x = 0> : tensor<8x16xf32> -> !mirage_block.stensor<4x16xf32>
    %bt = input_loader %B imap <x = 0> : tensor<8x16xf32> -> !mirage_block.stensor<4x16xf32>
    %rt = input_loader %R imap <x = 0> : tensor<8x1xf32> -> !mirage_block.stensor<4x1xf32>
    %t:2 = thread_graph %at, %bt, %rt : !mirage_block.stensor<4x16xf32>, !mirage_block.stensor<4x16xf32>, !mirage_block.stensor<4x1xf32>
        -> !mirage_block.stensor<4x16xf32>, !mirage_block.stensor<4x16xf32> {
    ^bb0(%x: f32, %w: f32, %z: f32):
      %m = mul %x, %w : f32
      %s = add %m, %z : f32
      %g = silu %x : f32
      yield %s, %g : f32, f32
    }
    %e = exp %t#0 : !mirage_block.stensor<4x16xf32>
    %y = sub %e, %t#1 : !mirage_block.stensor<4x16xf32>, !mirage_block.stensor<4x16xf32> -> !mirage_block.stensor<4x16xf32>
    %out = output_saver %y omap <x = 0> : !mirage_block.stensor<4x16xf32> -> tensor<8x16xf32>
    yield %out : tensor<8x16xf32>
  }
  return %o : tensor<8x16xf32>
}
