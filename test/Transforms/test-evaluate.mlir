// RUN: mirage-opt %s --mirage-test-evaluate -o /dev/null | FileCheck %s
// RUN: mirage-opt %s --mirage-test-evaluate='domain=storage' -o /dev/null | FileCheck %s --check-prefix=STORAGE
// RUN: mirage-opt %s --mirage-test-evaluate='domain=field' -o /dev/null | FileCheck %s --check-prefix=FIELD
// RUN: not mirage-opt %s --mirage-test-evaluate='domain=int8' -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD

// The strided rule: out[j] = sum_k in[j + 2k], not sums of contiguous pairs.
// CHECK: @strided: output 0 (2) = [12, 16]
// FIELD: @strided: output 0 (2) = [12, 16]
func.func @strided(%x: tensor<8xf32>) -> tensor<2xf32>
    attributes {mirage.test_inputs = [dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]> : tensor<8xf32>]} {
  %r = mirage_kernel.reduction %x dim 0 size 2 : tensor<8xf32> -> tensor<2xf32>
  return %r : tensor<2xf32>
}

// f64 keeps 1/3 exactly enough; storage rounds the f16 result.
// CHECK: @third: output 0 (1) = [0.333333]
// STORAGE: @third: output 0 (1) = [0.333252]
func.func @third(%x: tensor<1xf16>, %y: tensor<1xf16>) -> tensor<1xf16>
    attributes {mirage.test_inputs = [dense<1.0> : tensor<1xf16>, dense<3.0> : tensor<1xf16>]} {
  %r = mirage_kernel.div %x, %y : tensor<1xf16>, tensor<1xf16> -> tensor<1xf16>
  return %r : tensor<1xf16>
}

// Long outputs are cut at print-limit.
// CHECK: @long: output 0 (16) = [1, 1, 1, 1, 1, 1, 1, 1, ...]
func.func @long(%x: tensor<16xf32>) -> tensor<16xf32>
    attributes {mirage.test_inputs = [dense<0.0> : tensor<16xf32>]} {
  %e = mirage_kernel.exp %x : tensor<16xf32>
  return %e : tensor<16xf32>
}

// BAD: error: unknown domain 'int8': expected f64, storage or field

// reduction_max takes the largest element along its dimension, any one.
// CHECK: @row_max: output 0 (2x1) = [3, 7]
// CHECK: @row_max: output 1 (1x4) = [7, 3, 5, 6]
// STORAGE: @row_max: output 0 (2x1) = [3, 7]
func.func @row_max(%x: tensor<2x4xf32>) -> (tensor<2x1xf32>, tensor<1x4xf32>)
    attributes {mirage.test_inputs = [dense<[[0.0, 3.0, -1.0, 2.0], [7.0, 1.0, 5.0, 6.0]]> : tensor<2x4xf32>]} {
  %r = mirage_kernel.reduction_max %x dim 1 : tensor<2x4xf32> -> tensor<2x1xf32>
  %c = mirage_kernel.reduction_max %x dim 0 : tensor<2x4xf32> -> tensor<1x4xf32>
  return %r, %c : tensor<2x1xf32>, tensor<1x4xf32>
}
