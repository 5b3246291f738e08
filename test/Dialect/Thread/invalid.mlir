// RUN: mirage-opt %s -split-input-file -verify-diagnostics

func.func @outside_thread_graph(%a: f16) {
  // expected-error @below {{expects parent op 'mirage_block.thread_graph'}}
  %0 = mirage_thread.exp %a : f16
  return
}

// -----

func.func @element_type(%a: tensor<8x64xf16>) -> tensor<8x64xf16> {
  %o = mirage_kernel.graph_def(%A = %a : tensor<8x64xf16>) -> tensor<8x64xf16> grid [1, 1, 1] block [64, 1, 1] forloop 1 {
    %t = input_loader %A imap <> : tensor<8x64xf16> -> !mirage_block.stensor<8x64xf16>
    %r = thread_graph %t : !mirage_block.stensor<8x64xf16> -> !mirage_block.stensor<8x64xf16> {
    ^bb0(%x: f16):
      // expected-error @below {{op result #0 must be 16-bit float or bfloat16 type or 32-bit float, but got 'i32'}}
      %c = "mirage_thread.neg"(%x) : (f16) -> i32
      yield %x : f16
    }
    %s = output_saver %r omap <> : !mirage_block.stensor<8x64xf16> -> tensor<8x64xf16>
    yield %s : tensor<8x64xf16>
  }
  return %o : tensor<8x64xf16>
}

// -----

func.func @mixed_types(%a: tensor<8x64xf16>) -> tensor<8x64xf16> {
  %o = mirage_kernel.graph_def(%A = %a : tensor<8x64xf16>) -> tensor<8x64xf16> grid [1, 1, 1] block [64, 1, 1] forloop 1 {
    %t = input_loader %A imap <> : tensor<8x64xf16> -> !mirage_block.stensor<8x64xf16>
    %r = thread_graph %t : !mirage_block.stensor<8x64xf16> -> !mirage_block.stensor<8x64xf16> {
    ^bb0(%x: f16):
      // expected-error @below {{requires the same type for all operands and results}}
      %c = "mirage_thread.add"(%x, %x) : (f16, f16) -> f32
      yield %x : f16
    }
    %s = output_saver %r omap <> : !mirage_block.stensor<8x64xf16> -> tensor<8x64xf16>
    yield %s : tensor<8x64xf16>
  }
  return %o : tensor<8x64xf16>
}

// -----

func.func @yield_outside(%a: f16) {
  // expected-error @below {{expects parent op 'mirage_block.thread_graph'}}
  mirage_thread.yield %a : f16
}

// -----

func.func @block_op_in_thread_graph(%a: tensor<8x64xf16>) -> tensor<8x64xf16> {
  %o = mirage_kernel.graph_def(%A = %a : tensor<8x64xf16>) -> tensor<8x64xf16> grid [1, 1, 1] block [64, 1, 1] forloop 1 {
    %t = input_loader %A imap <> : tensor<8x64xf16> -> !mirage_block.stensor<8x64xf16>
    %r = thread_graph %t : !mirage_block.stensor<8x64xf16> -> !mirage_block.stensor<8x64xf16> {
    ^bb0(%x: f16):
      // expected-error @below {{expects parent op 'mirage_kernel.graph_def'}}
      %c = mirage_block.exp %x : f16
      yield %x : f16
    }
    %s = output_saver %r omap <> : !mirage_block.stensor<8x64xf16> -> tensor<8x64xf16>
    yield %s : tensor<8x64xf16>
  }
  return %o : tensor<8x64xf16>
}
