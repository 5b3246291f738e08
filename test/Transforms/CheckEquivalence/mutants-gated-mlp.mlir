// RUN: mirage-opt %s --mirage-check-equivalence -verify-diagnostics -o /dev/null
// RUN: mirage-opt %s --mirage-check-equivalence='seed=987654321 trials=3' -verify-diagnostics -o /dev/null
// RUN: not mirage-opt %s --mirage-check-equivalence -o /dev/null 2>/dev/null

// Single-mistake mutants of the gated MLP O = silu(X W1) * (X W2)
// (X 8x32, W1 W2 32x16), built from the correct graphs of
// equivalent-gated-mlp.mlir (@fused, @fused_thread_graph_epilogue).

func.func @ref(%x: tensor<8x32xf32>, %w1: tensor<32x16xf32>, %w2: tensor<32x16xf32>) -> tensor<8x16xf32>
    attributes {mirage.reference} {
  %a = mirage_kernel.matmul %x, %w1 : tensor<8x32xf32>, tensor<32x16xf32> -> tensor<8x16xf32>
  %b = mirage_kernel.matmul %x, %w2 : tensor<8x32xf32>, tensor<32x16xf32> -> tensor<8x16xf32>
  %s = mirage_kernel.silu %a : tensor<8x16xf32>
  %o = mirage_kernel.mul %s, %b : tensor<8x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
  return %o : tensor<8x16xf32>
}

// gelu instead of silu after the loop.
// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @gelu_instead_of_silu(%x: tensor<8x32xf32>, %w1: tensor<32x16xf32>, %w2: tensor<32x16xf32>) -> tensor<8x16xf32> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<8x32xf32>, %W1 = %w1 : tensor<32x16xf32>, %W2 = %w2 : tensor<32x16xf32>)
      -> tensor<8x16xf32> grid [2, 1, 1] block [128, 1, 1] forloop 2 {
    %xt = input_loader %X imap <> fmap 1 : tensor<8x32xf32> -> !mirage_block.stensor<8x16xf32>
    %w1t = input_loader %W1 imap <x = 1> fmap 0 : tensor<32x16xf32> -> !mirage_block.stensor<16x8xf32>
    %w2t = input_loader %W2 imap <x = 1> fmap 0 : tensor<32x16xf32> -> !mirage_block.stensor<16x8xf32>
    %m1 = matmul %xt, %w1t : !mirage_block.stensor<8x16xf32>, !mirage_block.stensor<16x8xf32> -> !mirage_block.stensor<8x8xf32>
    %m2 = matmul %xt, %w2t : !mirage_block.stensor<8x16xf32>, !mirage_block.stensor<16x8xf32> -> !mirage_block.stensor<8x8xf32>
    %a1 = forloop_accum %m1 sum : !mirage_block.stensor<8x8xf32> -> !mirage_block.stensor<8x8xf32>
    %a2 = forloop_accum %m2 sum : !mirage_block.stensor<8x8xf32> -> !mirage_block.stensor<8x8xf32>
    %s = gelu %a1 : !mirage_block.stensor<8x8xf32>
    %y = mul %s, %a2 : !mirage_block.stensor<8x8xf32>, !mirage_block.stensor<8x8xf32> -> !mirage_block.stensor<8x8xf32>
    %out = output_saver %y omap <x = 1> : !mirage_block.stensor<8x8xf32> -> tensor<8x16xf32>
    yield %out : tensor<8x16xf32>
  }
  return %o : tensor<8x16xf32>
}

// silu applied to X W2 instead of X W1.
// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @silu_on_wrong_branch(%x: tensor<8x32xf32>, %w1: tensor<32x16xf32>, %w2: tensor<32x16xf32>) -> tensor<8x16xf32> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<8x32xf32>, %W1 = %w1 : tensor<32x16xf32>, %W2 = %w2 : tensor<32x16xf32>)
      -> tensor<8x16xf32> grid [2, 1, 1] block [128, 1, 1] forloop 2 {
    %xt = input_loader %X imap <> fmap 1 : tensor<8x32xf32> -> !mirage_block.stensor<8x16xf32>
    %w1t = input_loader %W1 imap <x = 1> fmap 0 : tensor<32x16xf32> -> !mirage_block.stensor<16x8xf32>
    %w2t = input_loader %W2 imap <x = 1> fmap 0 : tensor<32x16xf32> -> !mirage_block.stensor<16x8xf32>
    %m1 = matmul %xt, %w1t : !mirage_block.stensor<8x16xf32>, !mirage_block.stensor<16x8xf32> -> !mirage_block.stensor<8x8xf32>
    %m2 = matmul %xt, %w2t : !mirage_block.stensor<8x16xf32>, !mirage_block.stensor<16x8xf32> -> !mirage_block.stensor<8x8xf32>
    %a1 = forloop_accum %m1 sum : !mirage_block.stensor<8x8xf32> -> !mirage_block.stensor<8x8xf32>
    %a2 = forloop_accum %m2 sum : !mirage_block.stensor<8x8xf32> -> !mirage_block.stensor<8x8xf32>
    %s = silu %a2 : !mirage_block.stensor<8x8xf32>
    %y = mul %s, %a1 : !mirage_block.stensor<8x8xf32>, !mirage_block.stensor<8x8xf32> -> !mirage_block.stensor<8x8xf32>
    %out = output_saver %y omap <x = 1> : !mirage_block.stensor<8x8xf32> -> tensor<8x16xf32>
    yield %out : tensor<8x16xf32>
  }
  return %o : tensor<8x16xf32>
}

// silu applied to each partial product inside the loop, before the
// accumulation: sum of silu instead of silu of the sum.
// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @silu_inside_loop(%x: tensor<8x32xf32>, %w1: tensor<32x16xf32>, %w2: tensor<32x16xf32>) -> tensor<8x16xf32> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<8x32xf32>, %W1 = %w1 : tensor<32x16xf32>, %W2 = %w2 : tensor<32x16xf32>)
      -> tensor<8x16xf32> grid [2, 1, 1] block [128, 1, 1] forloop 2 {
    %xt = input_loader %X imap <> fmap 1 : tensor<8x32xf32> -> !mirage_block.stensor<8x16xf32>
    %w1t = input_loader %W1 imap <x = 1> fmap 0 : tensor<32x16xf32> -> !mirage_block.stensor<16x8xf32>
    %w2t = input_loader %W2 imap <x = 1> fmap 0 : tensor<32x16xf32> -> !mirage_block.stensor<16x8xf32>
    %m1 = matmul %xt, %w1t : !mirage_block.stensor<8x16xf32>, !mirage_block.stensor<16x8xf32> -> !mirage_block.stensor<8x8xf32>
    %m2 = matmul %xt, %w2t : !mirage_block.stensor<8x16xf32>, !mirage_block.stensor<16x8xf32> -> !mirage_block.stensor<8x8xf32>
    %sm1 = silu %m1 : !mirage_block.stensor<8x8xf32>
    %a1 = forloop_accum %sm1 sum : !mirage_block.stensor<8x8xf32> -> !mirage_block.stensor<8x8xf32>
    %a2 = forloop_accum %m2 sum : !mirage_block.stensor<8x8xf32> -> !mirage_block.stensor<8x8xf32>
        %y = mul %a1, %a2 : !mirage_block.stensor<8x8xf32>, !mirage_block.stensor<8x8xf32> -> !mirage_block.stensor<8x8xf32>
    %out = output_saver %y omap <x = 1> : !mirage_block.stensor<8x8xf32> -> tensor<8x16xf32>
    yield %out : tensor<8x16xf32>
  }
  return %o : tensor<8x16xf32>
}

// The second weight tile is loaded from W1 (copy-paste slip).
// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @w2_loaded_from_w1(%x: tensor<8x32xf32>, %w1: tensor<32x16xf32>, %w2: tensor<32x16xf32>) -> tensor<8x16xf32> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<8x32xf32>, %W1 = %w1 : tensor<32x16xf32>, %W2 = %w2 : tensor<32x16xf32>)
      -> tensor<8x16xf32> grid [2, 1, 1] block [128, 1, 1] forloop 2 {
    %xt = input_loader %X imap <> fmap 1 : tensor<8x32xf32> -> !mirage_block.stensor<8x16xf32>
    %w1t = input_loader %W1 imap <x = 1> fmap 0 : tensor<32x16xf32> -> !mirage_block.stensor<16x8xf32>
    %w2t = input_loader %W1 imap <x = 1> fmap 0 : tensor<32x16xf32> -> !mirage_block.stensor<16x8xf32>
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

// W1 loaded with (imap, fmap) = (<x = 0>, 1) instead of (<x = 1>, 0):
// the same 16x8 tile, from the wrong place.
// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @w1_imap_fmap_swapped(%x: tensor<8x32xf32>, %w1: tensor<32x16xf32>, %w2: tensor<32x16xf32>) -> tensor<8x16xf32> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<8x32xf32>, %W1 = %w1 : tensor<32x16xf32>, %W2 = %w2 : tensor<32x16xf32>)
      -> tensor<8x16xf32> grid [2, 1, 1] block [128, 1, 1] forloop 2 {
    %xt = input_loader %X imap <> fmap 1 : tensor<8x32xf32> -> !mirage_block.stensor<8x16xf32>
    %w1t = input_loader %W1 imap <x = 0> fmap 1 : tensor<32x16xf32> -> !mirage_block.stensor<16x8xf32>
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

// The gate X W1 accumulated with max instead of sum.
// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @gate_accum_max(%x: tensor<8x32xf32>, %w1: tensor<32x16xf32>, %w2: tensor<32x16xf32>) -> tensor<8x16xf32> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<8x32xf32>, %W1 = %w1 : tensor<32x16xf32>, %W2 = %w2 : tensor<32x16xf32>)
      -> tensor<8x16xf32> grid [2, 1, 1] block [128, 1, 1] forloop 2 {
    %xt = input_loader %X imap <> fmap 1 : tensor<8x32xf32> -> !mirage_block.stensor<8x16xf32>
    %w1t = input_loader %W1 imap <x = 1> fmap 0 : tensor<32x16xf32> -> !mirage_block.stensor<16x8xf32>
    %w2t = input_loader %W2 imap <x = 1> fmap 0 : tensor<32x16xf32> -> !mirage_block.stensor<16x8xf32>
    %m1 = matmul %xt, %w1t : !mirage_block.stensor<8x16xf32>, !mirage_block.stensor<16x8xf32> -> !mirage_block.stensor<8x8xf32>
    %m2 = matmul %xt, %w2t : !mirage_block.stensor<8x16xf32>, !mirage_block.stensor<16x8xf32> -> !mirage_block.stensor<8x8xf32>
    %a1 = forloop_accum %m1 max : !mirage_block.stensor<8x8xf32> -> !mirage_block.stensor<8x8xf32>
    %a2 = forloop_accum %m2 sum : !mirage_block.stensor<8x8xf32> -> !mirage_block.stensor<8x8xf32>
    %s = silu %a1 : !mirage_block.stensor<8x8xf32>
    %y = mul %s, %a2 : !mirage_block.stensor<8x8xf32>, !mirage_block.stensor<8x8xf32> -> !mirage_block.stensor<8x8xf32>
    %out = output_saver %y omap <x = 1> : !mirage_block.stensor<8x8xf32> -> tensor<8x16xf32>
    yield %out : tensor<8x16xf32>
  }
  return %o : tensor<8x16xf32>
}

// thread_graph epilogue with its operands swapped: silu(X W2) * (X W1).
// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @thread_graph_operands_swapped(%x: tensor<8x32xf32>, %w1: tensor<32x16xf32>, %w2: tensor<32x16xf32>) -> tensor<8x16xf32> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<8x32xf32>, %W1 = %w1 : tensor<32x16xf32>, %W2 = %w2 : tensor<32x16xf32>)
      -> tensor<8x16xf32> grid [2, 2, 1] block [128, 1, 1] forloop 4 {
    %xt = input_loader %X imap <y = 0> fmap 1 : tensor<8x32xf32> -> !mirage_block.stensor<4x8xf32>
    %w1t = input_loader %W1 imap <x = 1> fmap 0 : tensor<32x16xf32> -> !mirage_block.stensor<8x8xf32>
    %w2t = input_loader %W2 imap <x = 1> fmap 0 : tensor<32x16xf32> -> !mirage_block.stensor<8x8xf32>
    %m1 = matmul %xt, %w1t : !mirage_block.stensor<4x8xf32>, !mirage_block.stensor<8x8xf32> -> !mirage_block.stensor<4x8xf32>
    %m2 = matmul %xt, %w2t : !mirage_block.stensor<4x8xf32>, !mirage_block.stensor<8x8xf32> -> !mirage_block.stensor<4x8xf32>
    %a1 = forloop_accum %m1 sum : !mirage_block.stensor<4x8xf32> -> !mirage_block.stensor<4x8xf32>
    %a2 = forloop_accum %m2 sum : !mirage_block.stensor<4x8xf32> -> !mirage_block.stensor<4x8xf32>
    %y = thread_graph %a2, %a1 : !mirage_block.stensor<4x8xf32>, !mirage_block.stensor<4x8xf32> -> !mirage_block.stensor<4x8xf32> {
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

// thread_graph epilogue: silu(p) + q instead of silu(p) * q.
// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @thread_graph_add_instead_of_mul(%x: tensor<8x32xf32>, %w1: tensor<32x16xf32>, %w2: tensor<32x16xf32>) -> tensor<8x16xf32> {
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
      %r = add %s, %q : f32
      yield %r : f32
    }
    %out = output_saver %y omap <x = 1, y = 0> : !mirage_block.stensor<4x8xf32> -> tensor<8x16xf32>
    yield %out : tensor<8x16xf32>
  }
  return %o : tensor<8x16xf32>
}

// thread_graph epilogue yields silu(p) and drops the product.
// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @thread_graph_yields_gate_only(%x: tensor<8x32xf32>, %w1: tensor<32x16xf32>, %w2: tensor<32x16xf32>) -> tensor<8x16xf32> {
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
      yield %s : f32
    }
    %out = output_saver %y omap <x = 1, y = 0> : !mirage_block.stensor<4x8xf32> -> tensor<8x16xf32>
    yield %out : tensor<8x16xf32>
  }
  return %o : tensor<8x16xf32>
}
