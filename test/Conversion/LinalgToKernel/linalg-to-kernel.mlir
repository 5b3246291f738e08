// RUN: mirage-opt %s --split-input-file --convert-linalg-to-mirage-kernel | FileCheck %s

// A matmul accumulating into a zero fill is a kernel matmul; the fill and
// the empty tensor go away.
// CHECK-LABEL: func.func @matmul
// CHECK-NEXT: %[[M:.*]] = mirage_kernel.matmul %arg0, %arg1 : tensor<8x64xf16>, tensor<64x32xf16> -> tensor<8x32xf16>
// CHECK-NEXT: return %[[M]]
func.func @matmul(%a: tensor<8x64xf16>, %b: tensor<64x32xf16>) -> tensor<8x32xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<8x32xf16>
  %c = linalg.fill ins(%zero : f16) outs(%e : tensor<8x32xf16>) -> tensor<8x32xf16>
  %m = linalg.matmul ins(%a, %b : tensor<8x64xf16>, tensor<64x32xf16>) outs(%c : tensor<8x32xf16>) -> tensor<8x32xf16>
  return %m : tensor<8x32xf16>
}

// -----

// f16 operands accumulated in f32: the kernel matmul keeps the f32 result.
// A matmul into a tensor that is not zero adds it.
// CHECK-LABEL: func.func @matmul_f32_acc
// CHECK-NEXT: %[[M:.*]] = mirage_kernel.matmul %arg0, %arg1 : tensor<8x64xf16>, tensor<64x32xf16> -> tensor<8x32xf32>
// CHECK-NEXT: %[[A:.*]] = mirage_kernel.add %arg2, %[[M]] : tensor<8x32xf32>, tensor<8x32xf32> -> tensor<8x32xf32>
// CHECK-NEXT: return %[[A]]
func.func @matmul_f32_acc(%a: tensor<8x64xf16>, %b: tensor<64x32xf16>, %c: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %m = linalg.matmul ins(%a, %b : tensor<8x64xf16>, tensor<64x32xf16>) outs(%c : tensor<8x32xf32>) -> tensor<8x32xf32>
  return %m : tensor<8x32xf32>
}

// -----

// CHECK-LABEL: func.func @batch_matmul
// CHECK-NEXT: mirage_kernel.matmul %arg0, %arg1 : tensor<4x8x64xbf16>, tensor<4x64x32xbf16> -> tensor<4x8x32xbf16>
func.func @batch_matmul(%a: tensor<4x8x64xbf16>, %b: tensor<4x64x32xbf16>) -> tensor<4x8x32xbf16> {
  %zero = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<4x8x32xbf16>
  %c = linalg.fill ins(%zero : bf16) outs(%e : tensor<4x8x32xbf16>) -> tensor<4x8x32xbf16>
  %m = linalg.batch_matmul ins(%a, %b : tensor<4x8x64xbf16>, tensor<4x64x32xbf16>) outs(%c : tensor<4x8x32xbf16>) -> tensor<4x8x32xbf16>
  return %m : tensor<4x8x32xbf16>
}

// -----

// A contraction written as a linalg.generic in the matmul layout.
// CHECK-LABEL: func.func @generic_matmul
// CHECK-NEXT: mirage_kernel.matmul %arg0, %arg1 : tensor<8x64xf32>, tensor<64x32xf32> -> tensor<8x32xf32>
func.func @generic_matmul(%a: tensor<8x64xf32>, %b: tensor<64x32xf32>) -> tensor<8x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x32xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<8x64xf32>, tensor<64x32xf32>) outs(%c : tensor<8x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<8x32xf32>
  return %m : tensor<8x32xf32>
}

// -----

// Named elementwise ops, each one kernel op.
// CHECK-LABEL: func.func @named_elementwise
// CHECK-NEXT: %[[A:.*]] = mirage_kernel.add %arg0, %arg1 : tensor<8x32xf16>, tensor<8x32xf16> -> tensor<8x32xf16>
// CHECK-NEXT: %[[E:.*]] = mirage_kernel.exp %[[A]] : tensor<8x32xf16>
// CHECK-NEXT: %[[S:.*]] = mirage_kernel.sub %[[E]], %arg1 : tensor<8x32xf16>, tensor<8x32xf16> -> tensor<8x32xf16>
// CHECK-NEXT: %[[Q:.*]] = mirage_kernel.sqrt %[[S]] : tensor<8x32xf16>
// CHECK-NEXT: %[[R:.*]] = mirage_kernel.rsqrt %[[Q]] : tensor<8x32xf16>
// CHECK-NEXT: %[[D:.*]] = mirage_kernel.div %[[R]], %arg0 : tensor<8x32xf16>, tensor<8x32xf16> -> tensor<8x32xf16>
// CHECK-NEXT: %[[N:.*]] = mirage_kernel.neg %[[D]] : tensor<8x32xf16>
// CHECK-NEXT: %[[Z:.*]] = mirage_kernel.square %[[N]] : tensor<8x32xf16>
// CHECK-NEXT: %[[M:.*]] = mirage_kernel.mul %[[Z]], %arg0 : tensor<8x32xf16>, tensor<8x32xf16> -> tensor<8x32xf16>
// CHECK-NEXT: %[[P:.*]] = mirage_kernel.pow %[[M]], %arg1 : tensor<8x32xf16>, tensor<8x32xf16> -> tensor<8x32xf16>
// CHECK-NEXT: return %[[P]]
func.func @named_elementwise(%x: tensor<8x32xf16>, %y: tensor<8x32xf16>) -> tensor<8x32xf16> {
  %e = tensor.empty() : tensor<8x32xf16>
  %0 = linalg.add ins(%x, %y : tensor<8x32xf16>, tensor<8x32xf16>) outs(%e : tensor<8x32xf16>) -> tensor<8x32xf16>
  %1 = linalg.exp ins(%0 : tensor<8x32xf16>) outs(%e : tensor<8x32xf16>) -> tensor<8x32xf16>
  %2 = linalg.sub ins(%1, %y : tensor<8x32xf16>, tensor<8x32xf16>) outs(%e : tensor<8x32xf16>) -> tensor<8x32xf16>
  %3 = linalg.sqrt ins(%2 : tensor<8x32xf16>) outs(%e : tensor<8x32xf16>) -> tensor<8x32xf16>
  %4 = linalg.rsqrt ins(%3 : tensor<8x32xf16>) outs(%e : tensor<8x32xf16>) -> tensor<8x32xf16>
  %5 = linalg.div ins(%4, %x : tensor<8x32xf16>, tensor<8x32xf16>) outs(%e : tensor<8x32xf16>) -> tensor<8x32xf16>
  %6 = linalg.negf ins(%5 : tensor<8x32xf16>) outs(%e : tensor<8x32xf16>) -> tensor<8x32xf16>
  %7 = linalg.square ins(%6 : tensor<8x32xf16>) outs(%e : tensor<8x32xf16>) -> tensor<8x32xf16>
  %8 = linalg.mul ins(%7, %x : tensor<8x32xf16>, tensor<8x32xf16>) outs(%e : tensor<8x32xf16>) -> tensor<8x32xf16>
  %9 = linalg.powf ins(%8, %y : tensor<8x32xf16>, tensor<8x32xf16>) outs(%e : tensor<8x32xf16>) -> tensor<8x32xf16>
  return %9 : tensor<8x32xf16>
}

// -----

// A generic's body becomes one kernel op per scalar op: multiplying by a
// constant is mul_scalar (dividing by one too), max with 0 is relu, x times
// its sigmoid is silu, 1 / sqrt is rsqrt, a value times itself is square.
// CHECK-LABEL: func.func @generic_body
// CHECK-NEXT: %[[S:.*]] = mirage_kernel.mul_scalar %arg0 by 1.250000e-01 : tensor<8x32xf32>
// CHECK-NEXT: %[[H:.*]] = mirage_kernel.mul_scalar %[[S]] by 5.000000e-01 : tensor<8x32xf32>
// CHECK-NEXT: %[[R:.*]] = mirage_kernel.relu %[[H]] : tensor<8x32xf32>
// CHECK-NEXT: %[[U:.*]] = mirage_kernel.silu %[[R]] : tensor<8x32xf32>
// CHECK-NEXT: %[[Q:.*]] = mirage_kernel.rsqrt %[[U]] : tensor<8x32xf32>
// CHECK-NEXT: %[[Z:.*]] = mirage_kernel.square %[[Q]] : tensor<8x32xf32>
// CHECK-NEXT: return %[[Z]]
func.func @generic_body(%x: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %e = tensor.empty() : tensor<8x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x32xf32>) outs(%e : tensor<8x32xf32>) {
  ^bb0(%a: f32, %out: f32):
    %c8 = arith.constant 0.125 : f32
    %c2 = arith.constant 2.0 : f32
    %c0 = arith.constant 0.0 : f32
    %c1 = arith.constant 1.0 : f32
    %s = arith.mulf %c8, %a : f32
    %h = arith.divf %s, %c2 : f32
    %r = arith.maximumf %h, %c0 : f32
    %n = arith.negf %r : f32
    %ex = math.exp %n : f32
    %d = arith.addf %c1, %ex : f32
    %sig = arith.divf %c1, %d : f32
    %u = arith.mulf %r, %sig : f32
    %q = math.sqrt %u : f32
    %iq = arith.divf %c1, %q : f32
    %z = arith.mulf %iq, %iq : f32
    linalg.yield %z : f32
  } -> tensor<8x32xf32>
  return %r : tensor<8x32xf32>
}

// -----

// Broadcasting operands: a dimension dropped from the map, or a constant 0
// on a dimension of size 1, is a dimension of size 1 of the kernel operand.
// Reshapes that only add or drop unit dimensions are looked through.
// CHECK-LABEL: func.func @broadcast
// CHECK-NEXT: %[[A:.*]] = mirage_kernel.mul %arg0, %arg1 : tensor<8x32xf16>, tensor<8x1xf16> -> tensor<8x32xf16>
// CHECK-NEXT: %[[W:.*]] = tensor.expand_shape %arg2 {{\[\[}}0, 1]] output_shape [1, 32] : tensor<32xf16> into tensor<1x32xf16>
// CHECK-NEXT: %[[B:.*]] = mirage_kernel.add %[[A]], %[[W]] : tensor<8x32xf16>, tensor<1x32xf16> -> tensor<8x32xf16>
// CHECK-NEXT: return %[[B]]
func.func @broadcast(%x: tensor<8x32xf16>, %s: tensor<8x1xf16>, %w: tensor<32xf16>) -> tensor<8x32xf16> {
  %e = tensor.empty() : tensor<8x32xf16>
  %a = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, 0)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<8x32xf16>, tensor<8x1xf16>) outs(%e : tensor<8x32xf16>) {
  ^bb0(%p: f16, %q: f16, %out: f16):
    %m = arith.mulf %p, %q : f16
    linalg.yield %m : f16
  } -> tensor<8x32xf16>
  %wb = linalg.broadcast ins(%w : tensor<32xf16>) outs(%e : tensor<8x32xf16>) dimensions = [0]
  %b = linalg.add ins(%a, %wb : tensor<8x32xf16>, tensor<8x32xf16>) outs(%e : tensor<8x32xf16>) -> tensor<8x32xf16>
  return %b : tensor<8x32xf16>
}

// -----

// The fill-then-reduce idiom: a sum over the last dimension is a kernel
// reduction keeping that dimension; the reduced result drops it again, and a
// broadcast of it reads the kernel value directly.
// CHECK-LABEL: func.func @softmax
// CHECK-NEXT: %[[E:.*]] = mirage_kernel.exp %arg0 : tensor<8x64xf32>
// CHECK-NEXT: %[[S:.*]] = mirage_kernel.reduction %[[E]] dim 1 : tensor<8x64xf32> -> tensor<8x1xf32>
// CHECK-NEXT: %[[D:.*]] = mirage_kernel.div %[[E]], %[[S]] : tensor<8x64xf32>, tensor<8x1xf32> -> tensor<8x64xf32>
// CHECK-NEXT: return %[[D]]
func.func @softmax(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x64xf32>
  %ex = linalg.exp ins(%x : tensor<8x64xf32>) outs(%e : tensor<8x64xf32>) -> tensor<8x64xf32>
  %re = tensor.empty() : tensor<8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%re : tensor<8xf32>) -> tensor<8xf32>
  %sum = linalg.reduce ins(%ex : tensor<8x64xf32>) outs(%init : tensor<8xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %a = arith.addf %in, %acc : f32
      linalg.yield %a : f32
    }
  %d = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%ex, %sum : tensor<8x64xf32>, tensor<8xf32>) outs(%e : tensor<8x64xf32>) {
  ^bb0(%p: f32, %q: f32, %out: f32):
    %v = arith.divf %p, %q : f32
    linalg.yield %v : f32
  } -> tensor<8x64xf32>
  return %d : tensor<8x64xf32>
}

// -----

// A reduction generic that squares before summing, over two dimensions; the
// result keeps the rank-reduced type through a collapse.
// CHECK-LABEL: func.func @sum_of_squares
// CHECK-NEXT: %[[Q:.*]] = mirage_kernel.square %arg0 : tensor<2x8x64xf16>
// CHECK-NEXT: %[[A:.*]] = mirage_kernel.reduction %[[Q]] dim 1 : tensor<2x8x64xf16> -> tensor<2x1x64xf16>
// CHECK-NEXT: %[[B:.*]] = mirage_kernel.reduction %[[A]] dim 2 : tensor<2x1x64xf16> -> tensor<2x1x1xf16>
// CHECK-NEXT: %[[C:.*]] = tensor.collapse_shape %[[B]] {{\[\[}}0, 1, 2]] : tensor<2x1x1xf16> into tensor<2xf16>
// CHECK-NEXT: return %[[C]]
func.func @sum_of_squares(%x: tensor<2x8x64xf16>) -> tensor<2xf16> {
  %zero = arith.constant 0.0 : f16
  %re = tensor.empty() : tensor<2xf16>
  %init = linalg.fill ins(%zero : f16) outs(%re : tensor<2xf16>) -> tensor<2xf16>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, j, k)>, affine_map<(i, j, k) -> (i)>],
                       iterator_types = ["parallel", "reduction", "reduction"]}
      ins(%x : tensor<2x8x64xf16>) outs(%init : tensor<2xf16>) {
  ^bb0(%p: f16, %acc: f16):
    %q = arith.mulf %p, %p : f16
    %a = arith.addf %acc, %q : f16
    linalg.yield %a : f16
  } -> tensor<2xf16>
  return %s : tensor<2xf16>
}

// -----

// A copy is its input; a batch matmul of batch 1 whose operands are rank-2
// values is a rank-2 matmul.
// CHECK-LABEL: func.func @unit_batch
// CHECK-NEXT: %[[M:.*]] = mirage_kernel.matmul %arg0, %arg1 : tensor<8x64xf16>, tensor<64x32xf16> -> tensor<8x32xf16>
// CHECK-NEXT: return %[[M]]
func.func @unit_batch(%a: tensor<8x64xf16>, %b: tensor<64x32xf16>) -> tensor<8x32xf16> {
  %zero = arith.constant 0.0 : f16
  %a3 = tensor.expand_shape %a [[0, 1], [2]] output_shape [1, 8, 64] : tensor<8x64xf16> into tensor<1x8x64xf16>
  %b3 = tensor.expand_shape %b [[0, 1], [2]] output_shape [1, 64, 32] : tensor<64x32xf16> into tensor<1x64x32xf16>
  %e = tensor.empty() : tensor<1x8x32xf16>
  %c = linalg.fill ins(%zero : f16) outs(%e : tensor<1x8x32xf16>) -> tensor<1x8x32xf16>
  %m = linalg.batch_matmul ins(%a3, %b3 : tensor<1x8x64xf16>, tensor<1x64x32xf16>) outs(%c : tensor<1x8x32xf16>) -> tensor<1x8x32xf16>
  %m2 = tensor.collapse_shape %m [[0, 1], [2]] : tensor<1x8x32xf16> into tensor<8x32xf16>
  %e2 = tensor.empty() : tensor<8x32xf16>
  %cp = linalg.copy ins(%m2 : tensor<8x32xf16>) outs(%e2 : tensor<8x32xf16>) -> tensor<8x32xf16>
  return %cp : tensor<8x32xf16>
}

// -----

// RMSNorm without eps, x * rsqrt(sum(x²) / n) over the last dimension, is
// one rms_norm; the weight stays a multiplication.
// CHECK-LABEL: func.func @rms_norm
// CHECK-NEXT: %[[N:.*]] = mirage_kernel.rms_norm %arg0 size 64 : tensor<8x64xf16>
// CHECK-NEXT: %[[W:.*]] = tensor.expand_shape %arg1
// CHECK-NEXT: %[[Y:.*]] = mirage_kernel.mul %[[N]], %[[W]] : tensor<8x64xf16>, tensor<1x64xf16> -> tensor<8x64xf16>
// CHECK-NEXT: return %[[Y]]
func.func @rms_norm(%x: tensor<8x64xf16>, %w: tensor<64xf16>) -> tensor<8x64xf16> {
  %zero = arith.constant 0.0 : f16
  %e8 = tensor.empty() : tensor<8xf16>
  %z8 = linalg.fill ins(%zero : f16) outs(%e8 : tensor<8xf16>) -> tensor<8xf16>
  %ss = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x64xf16>) outs(%z8 : tensor<8xf16>) {
  ^bb0(%a: f16, %acc: f16):
    %sq = arith.mulf %a, %a : f16
    %s = arith.addf %sq, %acc : f16
    linalg.yield %s : f16
  } -> tensor<8xf16>
  %e = tensor.empty() : tensor<8x64xf16>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %ss, %w : tensor<8x64xf16>, tensor<8xf16>, tensor<64xf16>) outs(%e : tensor<8x64xf16>) {
  ^bb0(%a: f16, %s: f16, %v: f16, %out: f16):
    %n = arith.constant 64.0 : f16
    %m = arith.divf %s, %n : f16
    %r = math.rsqrt %m : f16
    %xn = arith.mulf %a, %r : f16
    %o = arith.mulf %xn, %v : f16
    linalg.yield %o : f16
  } -> tensor<8x64xf16>
  return %y : tensor<8x64xf16>
}

// -----

// A mean over another extent than the normalized dimension's is not an RMSNorm.
// CHECK-LABEL: func.func @not_rms_norm
// CHECK-NOT: rms_norm
// CHECK: mirage_kernel.rsqrt
func.func @not_rms_norm(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e8 = tensor.empty() : tensor<8xf32>
  %z8 = linalg.fill ins(%zero : f32) outs(%e8 : tensor<8xf32>) -> tensor<8xf32>
  %ss = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x64xf32>) outs(%z8 : tensor<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %sq = arith.mulf %a, %a : f32
    %s = arith.addf %sq, %acc : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %e = tensor.empty() : tensor<8x64xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %ss : tensor<8x64xf32>, tensor<8xf32>) outs(%e : tensor<8x64xf32>) {
  ^bb0(%a: f32, %s: f32, %out: f32):
    %n = arith.constant 0.03125 : f32
    %m = arith.mulf %s, %n : f32
    %r = math.rsqrt %m : f32
    %xn = arith.mulf %a, %r : f32
    linalg.yield %xn : f32
  } -> tensor<8x64xf32>
  return %y : tensor<8x64xf32>
}

// -----

// A matrix-vector product has no column dimension: a broadcasting product
// and a sum.
// CHECK-LABEL: func.func @matvec
// CHECK-NEXT: %[[X:.*]] = tensor.expand_shape %arg1 {{\[\[}}0, 1]] output_shape [1, 64] : tensor<64xf32> into tensor<1x64xf32>
// CHECK-NEXT: %[[P:.*]] = mirage_kernel.mul %arg0, %[[X]] : tensor<8x64xf32>, tensor<1x64xf32> -> tensor<8x64xf32>
// CHECK-NEXT: %[[S:.*]] = mirage_kernel.reduction %[[P]] dim 1 : tensor<8x64xf32> -> tensor<8x1xf32>
// CHECK-NEXT: %[[R:.*]] = tensor.collapse_shape %[[S]] {{\[\[}}0, 1]] : tensor<8x1xf32> into tensor<8xf32>
// CHECK-NEXT: return %[[R]]
func.func @matvec(%a: tensor<8x64xf32>, %x: tensor<64xf32>) -> tensor<8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %r = linalg.matvec ins(%a, %x : tensor<8x64xf32>, tensor<64xf32>) outs(%c : tensor<8xf32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// linalg.contract in the matmul layout.
// CHECK-LABEL: func.func @contract
// CHECK-NEXT: %[[M:.*]] = mirage_kernel.matmul %arg0, %arg1 : tensor<8x64xf32>, tensor<64x32xf32> -> tensor<8x32xf32>
// CHECK-NEXT: return %[[M]]
func.func @contract(%a: tensor<8x64xf32>, %b: tensor<64x32xf32>) -> tensor<8x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x32xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %r = linalg.contract indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<8x64xf32>, tensor<64x32xf32>) outs(%c : tensor<8x32xf32>) -> tensor<8x32xf32>
  return %r : tensor<8x32xf32>
}
