// RUN: mirage-opt %s --split-input-file --convert-linalg-to-mirage-kernel --verify-diagnostics | FileCheck %s
// RUN: not mirage-opt %s --split-input-file --convert-linalg-to-mirage-kernel='strict=true' 2>&1 | FileCheck %s --check-prefix=STRICT

// Ops outside the kernel dialect's reach stay in place with a remark naming
// them and the reason; with strict=true each is an error and the pass fails.
// STRICT: error: linalg.matmul left unconverted: operand 1
// STRICT: error: linalg.transpose left unconverted
// STRICT-NOT: remark:

// CHECK-LABEL: func.func @transposed_matmul
// CHECK: linalg.matmul
func.func @transposed_matmul(%a: tensor<8x64xf16>, %b: tensor<32x64xf16>, %c: tensor<8x32xf16>) -> tensor<8x32xf16> {
  // expected-remark @below {{linalg.matmul left unconverted: operand 1 of the contraction is transposed; the kernel dialect has no transpose}}
  %m = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<8x64xf16>, tensor<32x64xf16>) outs(%c : tensor<8x32xf16>) -> tensor<8x32xf16>
  return %m : tensor<8x32xf16>
}

// -----

func.func @transpose(%a: tensor<8x64xf16>) -> tensor<64x8xf16> {
  %e = tensor.empty() : tensor<64x8xf16>
  // expected-remark @below {{linalg.transpose left unconverted: operand 0 is read through a permutation; the kernel dialect has no transpose}}
  %t = linalg.transpose ins(%a : tensor<8x64xf16>) outs(%e : tensor<64x8xf16>) permutation = [1, 0]
  return %t : tensor<64x8xf16>
}

// -----

func.func @dynamic(%a: tensor<?x64xf16>, %e: tensor<?x64xf16>) -> tensor<?x64xf16> {
  // expected-remark @below {{linalg.exp left unconverted: operand 0 has a dynamic shape (tensor<?x64xf16>); kernel tensors are statically shaped}}
  %r = linalg.exp ins(%a : tensor<?x64xf16>) outs(%e : tensor<?x64xf16>) -> tensor<?x64xf16>
  return %r : tensor<?x64xf16>
}

// -----

func.func @integer(%a: tensor<8x64xi32>, %e: tensor<8x64xi32>) -> tensor<8x64xi32> {
  // expected-remark @below {{linalg.add left unconverted: operand 0 has element type i32; kernel tensors hold f16, bf16 or f32}}
  %r = linalg.add ins(%a, %a : tensor<8x64xi32>, tensor<8x64xi32>) outs(%e : tensor<8x64xi32>) -> tensor<8x64xi32>
  return %r : tensor<8x64xi32>
}

// -----

func.func @min_reduce(%a: tensor<8x64xf32>) -> tensor<8xf32> {
  %inf = arith.constant 0x7F800000 : f32
  %e = tensor.empty() : tensor<8xf32>
  // expected-remark @below {{linalg.fill left unconverted: it creates a constant tensor, which the kernel dialect cannot}}
  %init = linalg.fill ins(%inf : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  // expected-remark @below {{linalg.reduce left unconverted: the reduction combines with arith.minimumf; kernel reductions sum or take the maximum}}
  %m = linalg.reduce ins(%a : tensor<8x64xf32>) outs(%init : tensor<8xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %x = arith.minimumf %in, %acc : f32
      linalg.yield %x : f32
    }
  return %m : tensor<8xf32>
}

// -----

// A maximum from 0 is relu of the maximum: no kernel op combines them.
func.func @max_from_zero(%a: tensor<8x64xf32>) -> tensor<8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  // expected-remark @below {{linalg.fill left unconverted: it creates a constant tensor, which the kernel dialect cannot}}
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  // expected-remark @below {{linalg.reduce left unconverted: it takes a maximum into a tensor that is not -inf or the lowest value of its type; the kernel dialect has no elementwise maximum to combine it with}}
  %m = linalg.reduce ins(%a : tensor<8x64xf32>) outs(%init : tensor<8xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %x = arith.maximumf %in, %acc : f32
      linalg.yield %x : f32
    }
  return %m : tensor<8xf32>
}

// -----

func.func @reduce_into_nonzero(%a: tensor<8x64xf32>) -> tensor<8xf32> {
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  // expected-remark @below {{linalg.fill left unconverted: it creates a constant tensor, which the kernel dialect cannot}}
  %init = linalg.fill ins(%one : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  // expected-remark @below {{linalg.reduce left unconverted: it accumulates into a tensor that is neither zero nor a kernel value (linalg.fill)}}
  %m = linalg.reduce ins(%a : tensor<8x64xf32>) outs(%init : tensor<8xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %x = arith.addf %in, %acc : f32
      linalg.yield %x : f32
    }
  return %m : tensor<8xf32>
}

// -----

func.func @cast(%a: tensor<8x64xf16>) -> tensor<8x64xf32> {
  %e = tensor.empty() : tensor<8x64xf32>
  // expected-remark @below {{linalg.generic left unconverted: operand 0 has element type f16 but the result f32; the kernel dialect has no cast}}
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<8x64xf16>) outs(%e : tensor<8x64xf32>) {
  ^bb0(%x: f16, %out: f32):
    %y = arith.extf %x : f16 to f32
    linalg.yield %y : f32
  } -> tensor<8x64xf32>
  return %r : tensor<8x64xf32>
}

// -----

func.func @add_constant(%a: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %e = tensor.empty() : tensor<8x64xf32>
  // expected-remark @below {{linalg.generic left unconverted: arith.addf of a constant has no kernel op (only multiplication and division by a constant do)}}
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<8x64xf32>) outs(%e : tensor<8x64xf32>) {
  ^bb0(%x: f32, %out: f32):
    %c = arith.constant 1.0e-6 : f32
    %y = arith.addf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<8x64xf32>
  return %r : tensor<8x64xf32>
}

// -----

func.func @unknown_scalar_op(%a: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %e = tensor.empty() : tensor<8x64xf32>
  // expected-remark @below {{linalg.tanh left unconverted: math.tanh has no kernel op}}
  %r = linalg.tanh ins(%a : tensor<8x64xf32>) outs(%e : tensor<8x64xf32>) -> tensor<8x64xf32>
  return %r : tensor<8x64xf32>
}

// -----

func.func @non_projected(%a: tensor<16xf32>) -> tensor<8x8xf32> {
  %e = tensor.empty() : tensor<8x8xf32>
  // expected-remark @below {{linalg.generic left unconverted: operand 0 is read through affine_map<(d0, d1) -> (d0 + d1)>, which is not a broadcast of the iteration space}}
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i + j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<16xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%x: f32, %out: f32):
    linalg.yield %x : f32
  } -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}

// -----

func.func @broadcast_alone(%a: tensor<8xf32>) -> tensor<8x4xf32> {
  %e = tensor.empty() : tensor<8x4xf32>
  // expected-remark @below {{linalg.broadcast left unconverted: its result repeats a smaller value (tensor<8x1xf32>), which a kernel op only does inside an elementwise op}}
  %r = linalg.broadcast ins(%a : tensor<8xf32>) outs(%e : tensor<8x4xf32>) dimensions = [1]
  return %r : tensor<8x4xf32>
}

// -----

func.func @buffers(%a: memref<8x64xf32>, %b: memref<8x64xf32>) {
  // expected-remark @below {{linalg.exp left unconverted: it operates on buffers; kernel ops take tensors}}
  linalg.exp ins(%a : memref<8x64xf32>) outs(%b : memref<8x64xf32>)
  return
}

// -----

func.func @two_contraction_dims(%a: tensor<8x4x16xf32>, %b: tensor<4x16x32xf32>, %c: tensor<8x32xf32>) -> tensor<8x32xf32> {
  // expected-remark @below {{linalg.generic left unconverted: the contraction has 2 reduced dimensions; a kernel matmul has one}}
  %r = linalg.generic {indexing_maps = [affine_map<(m, n, k, l) -> (m, k, l)>, affine_map<(m, n, k, l) -> (k, l, n)>, affine_map<(m, n, k, l) -> (m, n)>],
                       iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%a, %b : tensor<8x4x16xf32>, tensor<4x16x32xf32>) outs(%c : tensor<8x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<8x32xf32>
  return %r : tensor<8x32xf32>
}

// -----

func.func @reduce_broadcast_dim(%a: tensor<8x4xf32>, %b: tensor<8xf32>, %c: tensor<8xf32>) -> tensor<8xf32> {
  // expected-remark @below {{linalg.generic left unconverted: it sums over dimension 1, along which its operands are broadcast (a sum of copies)}}
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%a, %b : tensor<8x4xf32>, tensor<8xf32>) outs(%c : tensor<8xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %s = arith.addf %y, %acc : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

func.func @rank_zero(%a: tensor<f32>) -> tensor<f32> {
  %e = tensor.empty() : tensor<f32>
  // expected-remark @below {{linalg.exp left unconverted: its iteration space has no dimension; the importer makes kernel ops on tensors of rank 1 or more}}
  %r = linalg.exp ins(%a : tensor<f32>) outs(%e : tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}
