// RUN: mirage-opt %s -split-input-file --mirage-kernel-expand-to-blocks -verify-diagnostics

func.func @chunk(%x: tensor<4x8xf32>) -> tensor<4x4xf32> {
  // expected-error @below {{'mirage_kernel.chunk' op has no block-level form to expand into yet}}
  %a, %b = mirage_kernel.chunk %x dim 1 parts 2 : tensor<4x8xf32> -> tensor<4x4xf32>, tensor<4x4xf32>
  return %a : tensor<4x4xf32>
}

// -----

// Existing graph_defs are left alone.
func.func @graph_def(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<4x8xf32>) -> tensor<4x8xf32> grid [2, 1, 1] block [64, 1, 1] forloop 1 {
    %t = input_loader %X imap <x = 0> : tensor<4x8xf32> -> !mirage_block.stensor<2x8xf32>
    %s = output_saver %t omap <x = 0> : !mirage_block.stensor<2x8xf32> -> tensor<4x8xf32>
    yield %s : tensor<4x8xf32>
  }
  return %o : tensor<4x8xf32>
}
