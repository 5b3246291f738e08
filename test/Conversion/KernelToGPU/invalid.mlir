// RUN: mirage-opt %s --split-input-file --verify-diagnostics --mirage-kernel-expand-to-blocks --convert-mirage-block-to-gpu --convert-mirage-kernel-to-gpu
// RUN: not mirage-opt %s --split-input-file --convert-mirage-kernel-to-gpu 2>&1 | FileCheck %s --check-prefix=ORDER

// ORDER: error: 'mirage_kernel.exp' op has no GPU lowering here: expected only mirage_kernel.launch ops, library matmuls and the adds their calls compute (run mirage-kernel-expand-to-blocks and convert-mirage-block-to-gpu first)

func.func @returns_argument(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %e = mirage_kernel.exp %x : tensor<8xf32>
  // expected-error @+1 {{returns argument 0 as result 1; the code generator needs every result written by a kernel}}
  return %e, %x : tensor<8xf32>, tensor<8xf32>
}

// -----

func.func @returns_twice(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %e = mirage_kernel.exp %x : tensor<8xf32>
  // expected-error @+1 {{returns the same value twice (result 1); the code generator needs one kernel output per result}}
  return %e, %e : tensor<8xf32>, tensor<8xf32>
}
