// RUN: mirage-opt %s --mirage-check-equivalence -verify-diagnostics -o /dev/null
// RUN: mirage-opt %s --mirage-check-equivalence='seed=987654321 trials=3' -verify-diagnostics -o /dev/null
// RUN: not mirage-opt %s --mirage-check-equivalence -o /dev/null 2>/dev/null

// Single-mistake mutants of the thread_graph fusions of
// equivalent-thread-graph.mlir:  y = exp(a * b + r) - silu(a)  (r broadcast).

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

// thread_graph operands %at and %bt swapped: silu is applied to b.
// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @operands_swapped(%a: tensor<8x16xf32>, %b: tensor<8x16xf32>, %r: tensor<8x1xf32>) -> tensor<8x16xf32> {
  %o = mirage_kernel.graph_def(%A = %a : tensor<8x16xf32>, %B = %b : tensor<8x16xf32>, %R = %r : tensor<8x1xf32>)
      -> tensor<8x16xf32> grid [2, 1, 1] block [32, 1, 1] forloop 1 {
    %at = input_loader %A imap <x = 0> : tensor<8x16xf32> -> !mirage_block.stensor<4x16xf32>
    %bt = input_loader %B imap <x = 0> : tensor<8x16xf32> -> !mirage_block.stensor<4x16xf32>
    %rt = input_loader %R imap <x = 0> : tensor<8x1xf32> -> !mirage_block.stensor<4x1xf32>
    %y = thread_graph %bt, %at, %rt : !mirage_block.stensor<4x16xf32>, !mirage_block.stensor<4x16xf32>, !mirage_block.stensor<4x1xf32>
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

// Inside the thread_graph: a*b - r instead of a*b + r.
// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @sub_instead_of_add(%a: tensor<8x16xf32>, %b: tensor<8x16xf32>, %r: tensor<8x1xf32>) -> tensor<8x16xf32> {
  %o = mirage_kernel.graph_def(%A = %a : tensor<8x16xf32>, %B = %b : tensor<8x16xf32>, %R = %r : tensor<8x1xf32>)
      -> tensor<8x16xf32> grid [2, 1, 1] block [32, 1, 1] forloop 1 {
    %at = input_loader %A imap <x = 0> : tensor<8x16xf32> -> !mirage_block.stensor<4x16xf32>
    %bt = input_loader %B imap <x = 0> : tensor<8x16xf32> -> !mirage_block.stensor<4x16xf32>
    %rt = input_loader %R imap <x = 0> : tensor<8x1xf32> -> !mirage_block.stensor<4x1xf32>
    %y = thread_graph %at, %bt, %rt : !mirage_block.stensor<4x16xf32>, !mirage_block.stensor<4x16xf32>, !mirage_block.stensor<4x1xf32>
        -> !mirage_block.stensor<4x16xf32> {
    ^bb0(%x: f32, %w: f32, %z: f32):
      %m = mul %x, %w : f32
      %s = sub %m, %z : f32
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

// The thread_graph yields exp(a*b + r) and drops the "- silu(a)".
// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @yields_before_sub(%a: tensor<8x16xf32>, %b: tensor<8x16xf32>, %r: tensor<8x1xf32>) -> tensor<8x16xf32> {
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
      yield %e : f32
    }
    %out = output_saver %y omap <x = 0> : !mirage_block.stensor<4x16xf32> -> tensor<8x16xf32>
    yield %out : tensor<8x16xf32>
  }
  return %o : tensor<8x16xf32>
}

// gelu instead of silu inside the thread_graph.
// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @gelu_instead_of_silu(%a: tensor<8x16xf32>, %b: tensor<8x16xf32>, %r: tensor<8x1xf32>) -> tensor<8x16xf32> {
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
      %g = gelu %x : f32
      %d = sub %e, %g : f32
      yield %d : f32
    }
    %out = output_saver %y omap <x = 0> : !mirage_block.stensor<4x16xf32> -> tensor<8x16xf32>
    yield %out : tensor<8x16xf32>
  }
  return %o : tensor<8x16xf32>
}

// The two results of the prologue thread_graph used in swapped roles:
// exp(silu(a)) - (a*b + r).
// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @results_swapped(%a: tensor<8x16xf32>, %b: tensor<8x16xf32>, %r: tensor<8x1xf32>) -> tensor<8x16xf32> {
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
    %e = exp %t#1 : !mirage_block.stensor<4x16xf32>
    %y = sub %e, %t#0 : !mirage_block.stensor<4x16xf32>, !mirage_block.stensor<4x16xf32> -> !mirage_block.stensor<4x16xf32>
    %out = output_saver %y omap <x = 0> : !mirage_block.stensor<4x16xf32> -> tensor<8x16xf32>
    yield %out : tensor<8x16xf32>
  }
  return %o : tensor<8x16xf32>
}
