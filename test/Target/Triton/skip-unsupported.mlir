// With --triton-skip-unsupported, a function the backend refuses is left out
// with a warning and listed in a comment; the others are translated (the
// tuner measures the Triton forms of the candidates it can).
// RUN: mirage-translate --mirage-to-triton --triton-skip-unsupported %s -o %t.py 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: FileCheck %s < %t.py
// RUN: %python -m py_compile %t.py
// Without the option the whole module is refused.
// RUN: not mirage-translate --mirage-to-triton %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REFUSED

// WARN: warning: left out of the Triton module: 'mirage_block.concat' op is not supported by the Triton backend (Triton has no order-preserving concatenation of register tiles)
// WARN-NOT: warning

// CHECK: # Left out (not supported by the Triton backend):
// CHECK-NEXT: #   @block_concat: 'mirage_block.concat' op is not supported by the Triton backend
// CHECK: def scale(arg0, out=None):
// CHECK-NOT: def block_concat(
// CHECK: FUNCTIONS = {
// CHECK-NEXT: "scale":
// CHECK-NOT: block_concat
// CHECK: }

// REFUSED: error: 'mirage_block.concat' op is not supported by the Triton backend

func.func @block_concat(%x: tensor<8x64xf16>) -> tensor<8x128xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<8x64xf16>) -> tensor<8x128xf16>
      grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    %t = input_loader %X imap <> : tensor<8x64xf16> -> !mirage_block.stensor<8x64xf16>
    %c = concat %t, %t dim 1 : !mirage_block.stensor<8x64xf16>, !mirage_block.stensor<8x64xf16> -> !mirage_block.stensor<8x128xf16>
    %s = output_saver %c omap <> : !mirage_block.stensor<8x128xf16> -> tensor<8x128xf16>
    yield %s : tensor<8x128xf16>
  }
  return %o : tensor<8x128xf16>
}

func.func @scale(%x: tensor<8x64xf16>) -> tensor<8x64xf16> {
  %o = mirage_kernel.mul_scalar %x by 0.5 : tensor<8x64xf16>
  return %o : tensor<8x64xf16>
}
