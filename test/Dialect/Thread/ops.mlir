// RUN: mirage-opt %s | mirage-opt | FileCheck %s
// RUN: mirage-opt %s --mlir-print-op-generic | mirage-opt | FileCheck %s

// Every mirage_thread op, inside a thread_graph (the only place they live).
// CHECK-LABEL: func.func @thread_ops
func.func @thread_ops(%a: tensor<8x64xf16>, %b: tensor<8x64xf16>) -> tensor<8x64xf16> {
  %o = mirage_kernel.graph_def(%A = %a : tensor<8x64xf16>, %B = %b : tensor<8x64xf16>)
      -> tensor<8x64xf16> grid [1, 1, 1] block [64, 1, 1] forloop 1 {
    %at = input_loader %A imap <> : tensor<8x64xf16> -> !mirage_block.stensor<8x64xf16>
    %bt = input_loader %B imap <> : tensor<8x64xf16> -> !mirage_block.stensor<8x64xf16>
    // CHECK: thread_graph
    // CHECK-NEXT: ^bb0(%[[X:.*]]: f16, %[[Y:.*]]: f16):
    %t:2 = thread_graph %at, %bt : !mirage_block.stensor<8x64xf16>, !mirage_block.stensor<8x64xf16>
        -> !mirage_block.stensor<8x64xf16>, !mirage_block.stensor<8x64xf16> {
    ^bb0(%x: f16, %y: f16):
      // CHECK: exp %[[X]] : f16
      %0 = exp %x : f16
      // CHECK: square
      %1 = square %0 : f16
      // CHECK: sqrt
      %2 = sqrt %1 : f16
      // CHECK: rsqrt
      %3 = rsqrt %2 : f16
      // CHECK: silu
      %4 = silu %3 : f16
      // CHECK: gelu
      %5 = gelu %4 : f16
      // CHECK: relu
      %6 = relu %5 : f16
      // CHECK: neg
      %7 = neg %6 : f16
      // CHECK: mul_scalar %{{.*}} by 2.000000e+00 : f16
      %8 = mul_scalar %7 by 2.0 : f16
      // CHECK: add %{{.*}}, %[[Y]] : f16
      %9 = add %8, %y : f16
      // CHECK: sub
      %10 = sub %9, %y : f16
      // CHECK: mul
      %11 = mul %10, %y : f16
      // CHECK: div
      %12 = div %11, %y : f16
      // CHECK: pow
      %13 = pow %12, %y : f16
      // CHECK: yield %{{.*}}, %{{.*}} : f16, f16
      yield %13, %0 : f16, f16
    }
    %s = add %t#0, %t#1 : !mirage_block.stensor<8x64xf16>, !mirage_block.stensor<8x64xf16> -> !mirage_block.stensor<8x64xf16>
    %out = output_saver %s omap <> : !mirage_block.stensor<8x64xf16> -> tensor<8x64xf16>
    yield %out : tensor<8x64xf16>
  }
  return %o : tensor<8x64xf16>
}
