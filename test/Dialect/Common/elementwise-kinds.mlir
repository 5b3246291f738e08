// RUN: mirage-opt %s --mirage-test-elementwise-kinds --verify-diagnostics -o /dev/null

// Every elementwise op of the three dialects reports its ElementwiseKind
// (ElementwiseOpInterface): the kind's string form is the mnemonic and its
// arity the operand count. Ops that are not elementwise report none.

func.func @kernel_ops(%x: tensor<8x64xf16>, %r: tensor<8x1xf16>) -> tensor<8x64xf16> {
  // expected-remark @below {{exp, 1 operand}}
  %0 = mirage_kernel.exp %x : tensor<8x64xf16>
  // expected-remark @below {{square, 1 operand}}
  %1 = mirage_kernel.square %0 : tensor<8x64xf16>
  // expected-remark @below {{sqrt, 1 operand}}
  %2 = mirage_kernel.sqrt %1 : tensor<8x64xf16>
  // expected-remark @below {{rsqrt, 1 operand}}
  %3 = mirage_kernel.rsqrt %2 : tensor<8x64xf16>
  // expected-remark @below {{silu, 1 operand}}
  %4 = mirage_kernel.silu %3 : tensor<8x64xf16>
  // expected-remark @below {{gelu, 1 operand}}
  %5 = mirage_kernel.gelu %4 : tensor<8x64xf16>
  // expected-remark @below {{relu, 1 operand}}
  %6 = mirage_kernel.relu %5 : tensor<8x64xf16>
  // expected-remark @below {{neg, 1 operand}}
  %7 = mirage_kernel.neg %6 : tensor<8x64xf16>
  // expected-remark @below {{mul_scalar, 1 operand}}
  %8 = mirage_kernel.mul_scalar %7 by 0.125 : tensor<8x64xf16>
  // expected-remark @below {{add, 2 operands}}
  %9 = mirage_kernel.add %8, %r : tensor<8x64xf16>, tensor<8x1xf16> -> tensor<8x64xf16>
  // expected-remark @below {{sub, 2 operands}}
  %10 = mirage_kernel.sub %9, %r : tensor<8x64xf16>, tensor<8x1xf16> -> tensor<8x64xf16>
  // expected-remark @below {{mul, 2 operands}}
  %11 = mirage_kernel.mul %10, %r : tensor<8x64xf16>, tensor<8x1xf16> -> tensor<8x64xf16>
  // expected-remark @below {{div, 2 operands}}
  %12 = mirage_kernel.div %11, %r : tensor<8x64xf16>, tensor<8x1xf16> -> tensor<8x64xf16>
  // expected-remark @below {{pow, 2 operands}}
  %13 = mirage_kernel.pow %12, %r : tensor<8x64xf16>, tensor<8x1xf16> -> tensor<8x64xf16>
  %s = mirage_kernel.reduction %13 dim 1 : tensor<8x64xf16> -> tensor<8x1xf16>
  return %13 : tensor<8x64xf16>
}

func.func @block_ops(%x: tensor<8x64xf16>, %r: tensor<8x1xf16>) -> tensor<8x64xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<8x64xf16>, %R = %r : tensor<8x1xf16>)
      -> tensor<8x64xf16> grid [1, 1, 1] block [64, 1, 1] forloop 1 {
    %xt = input_loader %X imap <> : tensor<8x64xf16> -> !mirage_block.stensor<8x64xf16>
    %rt = input_loader %R imap <> : tensor<8x1xf16> -> !mirage_block.stensor<8x1xf16>
    // expected-remark @below {{exp, 1 operand}}
    %0 = exp %xt : !mirage_block.stensor<8x64xf16>
    // expected-remark @below {{square, 1 operand}}
    %1 = square %0 : !mirage_block.stensor<8x64xf16>
    // expected-remark @below {{sqrt, 1 operand}}
    %2 = sqrt %1 : !mirage_block.stensor<8x64xf16>
    // expected-remark @below {{rsqrt, 1 operand}}
    %3 = rsqrt %2 : !mirage_block.stensor<8x64xf16>
    // expected-remark @below {{silu, 1 operand}}
    %4 = silu %3 : !mirage_block.stensor<8x64xf16>
    // expected-remark @below {{gelu, 1 operand}}
    %5 = gelu %4 : !mirage_block.stensor<8x64xf16>
    // expected-remark @below {{relu, 1 operand}}
    %6 = relu %5 : !mirage_block.stensor<8x64xf16>
    // expected-remark @below {{neg, 1 operand}}
    %7 = neg %6 : !mirage_block.stensor<8x64xf16>
    // expected-remark @below {{mul_scalar, 1 operand}}
    %8 = mul_scalar %7 by 0.125 : !mirage_block.stensor<8x64xf16>
    // expected-remark @below {{add, 2 operands}}
    %9 = add %8, %rt : !mirage_block.stensor<8x64xf16>, !mirage_block.stensor<8x1xf16> -> !mirage_block.stensor<8x64xf16>
    // expected-remark @below {{sub, 2 operands}}
    %10 = sub %9, %rt : !mirage_block.stensor<8x64xf16>, !mirage_block.stensor<8x1xf16> -> !mirage_block.stensor<8x64xf16>
    // expected-remark @below {{mul, 2 operands}}
    %11 = mul %10, %rt : !mirage_block.stensor<8x64xf16>, !mirage_block.stensor<8x1xf16> -> !mirage_block.stensor<8x64xf16>
    // expected-remark @below {{div, 2 operands}}
    %12 = div %11, %rt : !mirage_block.stensor<8x64xf16>, !mirage_block.stensor<8x1xf16> -> !mirage_block.stensor<8x64xf16>
    // expected-remark @below {{pow, 2 operands}}
    %13 = pow %12, %rt : !mirage_block.stensor<8x64xf16>, !mirage_block.stensor<8x1xf16> -> !mirage_block.stensor<8x64xf16>
    %out = output_saver %13 omap <> : !mirage_block.stensor<8x64xf16> -> tensor<8x64xf16>
    yield %out : tensor<8x64xf16>
  }
  return %o : tensor<8x64xf16>
}

func.func @thread_ops(%x: tensor<8x64xf16>, %y: tensor<8x64xf16>) -> tensor<8x64xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<8x64xf16>, %Y = %y : tensor<8x64xf16>)
      -> tensor<8x64xf16> grid [1, 1, 1] block [64, 1, 1] forloop 1 {
    %xt = input_loader %X imap <> : tensor<8x64xf16> -> !mirage_block.stensor<8x64xf16>
    %yt = input_loader %Y imap <> : tensor<8x64xf16> -> !mirage_block.stensor<8x64xf16>
    %t = thread_graph %xt, %yt : !mirage_block.stensor<8x64xf16>, !mirage_block.stensor<8x64xf16> -> !mirage_block.stensor<8x64xf16> {
    ^bb0(%a: f16, %b: f16):
      // expected-remark @below {{exp, 1 operand}}
      %0 = exp %a : f16
      // expected-remark @below {{square, 1 operand}}
      %1 = square %0 : f16
      // expected-remark @below {{sqrt, 1 operand}}
      %2 = sqrt %1 : f16
      // expected-remark @below {{rsqrt, 1 operand}}
      %3 = rsqrt %2 : f16
      // expected-remark @below {{silu, 1 operand}}
      %4 = silu %3 : f16
      // expected-remark @below {{gelu, 1 operand}}
      %5 = gelu %4 : f16
      // expected-remark @below {{relu, 1 operand}}
      %6 = relu %5 : f16
      // expected-remark @below {{neg, 1 operand}}
      %7 = neg %6 : f16
      // expected-remark @below {{mul_scalar, 1 operand}}
      %8 = mul_scalar %7 by 2.0 : f16
      // expected-remark @below {{add, 2 operands}}
      %9 = add %8, %b : f16
      // expected-remark @below {{sub, 2 operands}}
      %10 = sub %9, %b : f16
      // expected-remark @below {{mul, 2 operands}}
      %11 = mul %10, %b : f16
      // expected-remark @below {{div, 2 operands}}
      %12 = div %11, %b : f16
      // expected-remark @below {{pow, 2 operands}}
      %13 = pow %12, %b : f16
      yield %13 : f16
    }
    %out = output_saver %t omap <> : !mirage_block.stensor<8x64xf16> -> tensor<8x64xf16>
    yield %out : tensor<8x64xf16>
  }
  return %o : tensor<8x64xf16>
}
