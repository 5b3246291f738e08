// RUN: not mirage-translate --export-mirage-json %s --split-input-file 2>&1 | FileCheck %s

// Programs outside the format get a diagnostic.
// CHECK: error: 'mirage_kernel.reduction' op has no equivalent in the µGraph JSON format
func.func @reduction(%x: tensor<4x8xf16>) -> tensor<4x1xf16> {
  %r = mirage_kernel.reduction %x dim 1 : tensor<4x8xf16> -> tensor<4x1xf16>
  return %r : tensor<4x1xf16>
}

// -----

// CHECK: error: 'func.func' op uses 'tensor<4x8xf32>': the µGraph JSON format holds only f16 tensors
func.func @f32(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = mirage_kernel.exp %x : tensor<4x8xf32>
  return %e : tensor<4x8xf32>
}
