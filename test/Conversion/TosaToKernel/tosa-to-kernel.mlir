// RUN: mirage-opt %s --split-input-file --convert-tosa-to-mirage-kernel | FileCheck %s
// RUN: mirage-opt %s --split-input-file --convert-tosa-to-mirage-kernel='strict=true' -o /dev/null

// Elementwise TOSA ops, broadcasting, a splat constant factor.
// CHECK-LABEL: func.func @elementwise
// CHECK-NEXT: %[[A:.*]] = mirage_kernel.add %arg0, %arg1 : tensor<8x16xf32>, tensor<8x1xf32> -> tensor<8x16xf32>
// CHECK-NEXT: %[[S:.*]] = mirage_kernel.sub %[[A]], %arg0 : tensor<8x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
// CHECK-NEXT: %[[P:.*]] = mirage_kernel.pow %[[S]], %arg0 : tensor<8x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
// CHECK-NEXT: %[[E:.*]] = mirage_kernel.exp %[[P]] : tensor<8x16xf32>
// CHECK-NEXT: %[[N:.*]] = mirage_kernel.neg %[[E]] : tensor<8x16xf32>
// CHECK-NEXT: %[[R:.*]] = mirage_kernel.rsqrt %[[N]] : tensor<8x16xf32>
// CHECK-NEXT: %[[M:.*]] = mirage_kernel.mul_scalar %[[R]] by 2.500000e-01 : tensor<8x16xf32>
// CHECK-NEXT: return %[[M]]
func.func @elementwise(%x: tensor<8x16xf32>, %y: tensor<8x1xf32>) -> tensor<8x16xf32> {
  %shift = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %quarter = "tosa.const"() {values = dense<0.25> : tensor<1x1xf32>} : () -> tensor<1x1xf32>
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %a = tosa.add %x, %y : (tensor<8x16xf32>, tensor<8x1xf32>) -> tensor<8x16xf32>
  %s = tosa.sub %a, %x : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %p = tosa.pow %s, %x : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %e = tosa.exp %p : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %n = tosa.negate %e, %zp, %zp : (tensor<8x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x16xf32>
  %r = tosa.rsqrt %n : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %m = tosa.mul %r, %quarter, %shift : (tensor<8x16xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<8x16xf32>
  return %m : tensor<8x16xf32>
}

// -----

// Softmax without the maximum: the reciprocal of the sum times the
// exponentials is a division; the sum keeps its dimension.
// CHECK-LABEL: func.func @softmax
// CHECK-NEXT: %[[E:.*]] = mirage_kernel.exp %arg0 : tensor<2x8x16xf16>
// CHECK-NEXT: %[[S:.*]] = mirage_kernel.reduction %[[E]] dim 2 : tensor<2x8x16xf16> -> tensor<2x8x1xf16>
// CHECK-NEXT: %[[D:.*]] = mirage_kernel.div %[[E]], %[[S]] : tensor<2x8x16xf16>, tensor<2x8x1xf16> -> tensor<2x8x16xf16>
// CHECK-NEXT: return %[[D]]
func.func @softmax(%x: tensor<2x8x16xf16>) -> tensor<2x8x16xf16> {
  %shift = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %e = tosa.exp %x : (tensor<2x8x16xf16>) -> tensor<2x8x16xf16>
  %s = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x8x16xf16>) -> tensor<2x8x1xf16>
  %r = tosa.reciprocal %s : (tensor<2x8x1xf16>) -> tensor<2x8x1xf16>
  %p = tosa.mul %e, %r, %shift : (tensor<2x8x16xf16>, tensor<2x8x1xf16>, tensor<1xi8>) -> tensor<2x8x16xf16>
  return %p : tensor<2x8x16xf16>
}

// -----

// Softmax as models write it: the row maximum (tosa.reduce_max, a linalg
// reduction by arith.maximumf from the lowest value) subtracted before exp.
// CHECK-LABEL: func.func @stable_softmax
// CHECK-NEXT: %[[M:.*]] = mirage_kernel.reduction_max %arg0 dim 2 : tensor<2x8x16xf16> -> tensor<2x8x1xf16>
// CHECK-NEXT: %[[D:.*]] = mirage_kernel.sub %arg0, %[[M]] : tensor<2x8x16xf16>, tensor<2x8x1xf16> -> tensor<2x8x16xf16>
// CHECK-NEXT: %[[E:.*]] = mirage_kernel.exp %[[D]] : tensor<2x8x16xf16>
// CHECK-NEXT: %[[S:.*]] = mirage_kernel.reduction %[[E]] dim 2 : tensor<2x8x16xf16> -> tensor<2x8x1xf16>
// CHECK-NEXT: %[[P:.*]] = mirage_kernel.div %[[E]], %[[S]] : tensor<2x8x16xf16>, tensor<2x8x1xf16> -> tensor<2x8x16xf16>
// CHECK-NEXT: return %[[P]]
func.func @stable_softmax(%x: tensor<2x8x16xf16>) -> tensor<2x8x16xf16> {
  %shift = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %m = tosa.reduce_max %x {axis = 2 : i32} : (tensor<2x8x16xf16>) -> tensor<2x8x1xf16>
  %d = tosa.sub %x, %m : (tensor<2x8x16xf16>, tensor<2x8x1xf16>) -> tensor<2x8x16xf16>
  %e = tosa.exp %d : (tensor<2x8x16xf16>) -> tensor<2x8x16xf16>
  %s = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x8x16xf16>) -> tensor<2x8x1xf16>
  %r = tosa.reciprocal %s : (tensor<2x8x1xf16>) -> tensor<2x8x1xf16>
  %p = tosa.mul %e, %r, %shift : (tensor<2x8x16xf16>, tensor<2x8x1xf16>, tensor<1xi8>) -> tensor<2x8x16xf16>
  return %p : tensor<2x8x16xf16>
}

// -----

// A matmul of batch 1 between reshapes is a rank-2 matmul; x * sigmoid(x)
// is silu.
// CHECK-LABEL: func.func @matmul_silu
// CHECK-NEXT: %[[W:.*]] = tensor.collapse_shape %arg1 {{\[\[}}0, 1], [2]] : tensor<1x64x32xbf16> into tensor<64x32xbf16>
// CHECK-NEXT: %[[M:.*]] = mirage_kernel.matmul %arg0, %[[W]] : tensor<8x64xbf16>, tensor<64x32xbf16> -> tensor<8x32xbf16>
// CHECK-NEXT: %[[S:.*]] = mirage_kernel.silu %[[M]] : tensor<8x32xbf16>
// CHECK-NEXT: return %[[S]]
func.func @matmul_silu(%x: tensor<8x64xbf16>, %w: tensor<1x64x32xbf16>) -> tensor<8x32xbf16> {
  %shift = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %zero = "tosa.const"() {values = dense<0.0> : tensor<1xbf16>} : () -> tensor<1xbf16>
  %s3 = tosa.const_shape {values = dense<[1, 8, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s2 = tosa.const_shape {values = dense<[8, 32]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %x3 = tosa.reshape %x, %s3 : (tensor<8x64xbf16>, !tosa.shape<3>) -> tensor<1x8x64xbf16>
  %m = tosa.matmul %x3, %w, %zero, %zero : (tensor<1x8x64xbf16>, tensor<1x64x32xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<1x8x32xbf16>
  %m2 = tosa.reshape %m, %s2 : (tensor<1x8x32xbf16>, !tosa.shape<2>) -> tensor<8x32xbf16>
  %g = tosa.sigmoid %m2 : (tensor<8x32xbf16>) -> tensor<8x32xbf16>
  %y = tosa.mul %m2, %g, %shift : (tensor<8x32xbf16>, tensor<8x32xbf16>, tensor<1xi8>) -> tensor<8x32xbf16>
  return %y : tensor<8x32xbf16>
}
