// RUN: mirage-opt %s --mirage-check-equivalence -verify-diagnostics -o /dev/null
// RUN: mirage-opt %s --mirage-check-equivalence='seed=987654321 trials=3' -verify-diagnostics -o /dev/null

// Loop phases (docs/LanguageReference.md): a loop-invariant load and op
// written after the accumulator, used both by a post-loop op and by its own
// output_saver in a graph_def with 4 loop iterations.
//   o0 = reduction(A, dim 1, size 8) * exp(B),   o1 = exp(B)

func.func @ref(%a: tensor<8x32xf32>, %b: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) attributes {mirage.reference} {
  %r = mirage_kernel.reduction %a dim 1 size 8 : tensor<8x32xf32> -> tensor<8x8xf32>
  %e = mirage_kernel.exp %b : tensor<8x8xf32>
  %m = mirage_kernel.mul %r, %e : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  return %m, %e : tensor<8x8xf32>, tensor<8x8xf32>
}

// expected-remark @below {{is equivalent to @ref}}
func.func @invariant_after_accumulator(%a: tensor<8x32xf32>, %b: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %o:2 = mirage_kernel.graph_def(%A = %a : tensor<8x32xf32>, %B = %b : tensor<8x8xf32>)
      -> (tensor<8x8xf32>, tensor<8x8xf32>) grid [2, 1, 1] block [32, 1, 1] forloop 4 {
    %at = input_loader %A imap <x = 0> fmap 1 : tensor<8x32xf32> -> !mirage_block.stensor<4x8xf32>
    %acc = forloop_accum %at sum : !mirage_block.stensor<4x8xf32> -> !mirage_block.stensor<4x8xf32>
    %bt = input_loader %B imap <x = 0> : tensor<8x8xf32> -> !mirage_block.stensor<4x8xf32>
    %e = exp %bt : !mirage_block.stensor<4x8xf32>
    %m = mul %acc, %e : !mirage_block.stensor<4x8xf32>, !mirage_block.stensor<4x8xf32> -> !mirage_block.stensor<4x8xf32>
    %s0 = output_saver %m omap <x = 0> : !mirage_block.stensor<4x8xf32> -> tensor<8x8xf32>
    %s1 = output_saver %e omap <x = 0> : !mirage_block.stensor<4x8xf32> -> tensor<8x8xf32>
    yield %s0, %s1 : tensor<8x8xf32>, tensor<8x8xf32>
  }
  return %o#0, %o#1 : tensor<8x8xf32>, tensor<8x8xf32>
}
