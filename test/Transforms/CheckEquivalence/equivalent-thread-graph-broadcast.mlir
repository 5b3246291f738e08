// RUN: mirage-opt %s --mirage-check-equivalence -verify-diagnostics -o /dev/null
// RUN: mirage-opt %s --mirage-check-equivalence='seed=987654321 trials=3' -verify-diagnostics -o /dev/null

// thread_graph with a row-broadcast operand (1x8 against 4x8), mul_scalar and
// neg in the body, two results, and a result that is a body argument:
//   y = r - 0.25 * (-a)        (r: 1x16, broadcast along the columns)

func.func @ref(%a: tensor<8x16xf32>, %r: tensor<1x16xf32>) -> tensor<8x16xf32> attributes {mirage.reference} {
  %n = mirage_kernel.neg %a : tensor<8x16xf32>
  %m = mirage_kernel.mul_scalar %n by 0.25 : tensor<8x16xf32>
  %s = mirage_kernel.sub %r, %m : tensor<1x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
  return %s : tensor<8x16xf32>
}
// The whole expression in one thread_graph (the second result, r itself,
// is unused).
// expected-remark @below {{is equivalent to @ref}}
func.func @tg(%a: tensor<8x16xf32>, %r: tensor<1x16xf32>) -> tensor<8x16xf32> {
  %o = mirage_kernel.graph_def(%A = %a : tensor<8x16xf32>, %R = %r : tensor<1x16xf32>)
      -> tensor<8x16xf32> grid [2, 2, 1] block [32, 1, 1] forloop 1 {
    %at = input_loader %A imap <x = 0, y = 1> : tensor<8x16xf32> -> !mirage_block.stensor<4x8xf32>
    %rt = input_loader %R imap <y = 1> : tensor<1x16xf32> -> !mirage_block.stensor<1x8xf32>
    %t:2 = thread_graph %rt, %at : !mirage_block.stensor<1x8xf32>, !mirage_block.stensor<4x8xf32> -> !mirage_block.stensor<4x8xf32>, !mirage_block.stensor<4x8xf32> {
    ^bb0(%z: f32, %x: f32):
      %n = neg %x : f32
      %m = mul_scalar %n by 0.25 : f32
      %s = sub %z, %m : f32
      yield %s, %z : f32, f32
    }
    %out = output_saver %t#0 omap <x = 0, y = 1> : !mirage_block.stensor<4x8xf32> -> tensor<8x16xf32>
    yield %out : tensor<8x16xf32>
  }
  return %o : tensor<8x16xf32>
}
// The thread_graph yields -0.25 a and the broadcast r (a body argument);
// the sub is a block op.
// expected-remark @below {{is equivalent to @ref}}
func.func @tg_identity_yield(%a: tensor<8x16xf32>, %r: tensor<1x16xf32>) -> tensor<8x16xf32> {
  %o = mirage_kernel.graph_def(%A = %a : tensor<8x16xf32>, %R = %r : tensor<1x16xf32>)
      -> tensor<8x16xf32> grid [2, 2, 1] block [32, 1, 1] forloop 1 {
    %at = input_loader %A imap <x = 0, y = 1> : tensor<8x16xf32> -> !mirage_block.stensor<4x8xf32>
    %rt = input_loader %R imap <y = 1> : tensor<1x16xf32> -> !mirage_block.stensor<1x8xf32>
    %t:2 = thread_graph %rt, %at : !mirage_block.stensor<1x8xf32>, !mirage_block.stensor<4x8xf32> -> !mirage_block.stensor<4x8xf32>, !mirage_block.stensor<4x8xf32> {
    ^bb0(%z: f32, %x: f32):
      %n = neg %x : f32
      %m = mul_scalar %n by 0.25 : f32
      yield %m, %z : f32, f32
    }
    %s = sub %t#1, %t#0 : !mirage_block.stensor<4x8xf32>, !mirage_block.stensor<4x8xf32> -> !mirage_block.stensor<4x8xf32>
    %out = output_saver %s omap <x = 0, y = 1> : !mirage_block.stensor<4x8xf32> -> tensor<8x16xf32>
    yield %out : tensor<8x16xf32>
  }
  return %o : tensor<8x16xf32>
}
