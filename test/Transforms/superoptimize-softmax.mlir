// A row softmax: the sum over a dimension that the output keeps, broadcast
// back over it (the denominator). The search sums whole rows in a block
// where the reference sums them: one graph_def per candidate, a block of rows
// each, exp, a reduction of the row and the division; mirage-tune measures
// them all (emit-candidates). (At 32x8192, the generality suite's size, the
// cost model ranks them behind the program as written.)
// RUN: mirage-opt %s --mirage-superoptimize='time-limit=20 emit-candidates=true max-candidates=2' 2>&1 | FileCheck %s

// CHECK: remark: superoptimized: {{.*}} 2 of 2 verified
// CHECK-LABEL: func.func @softmax_candidate_0
// CHECK: mirage_kernel.graph_def
// CHECK-SAME: forloop 1
// CHECK: %[[X:.*]] = input_loader %{{.*}} imap <x = 0> : tensor<8x256xf16> -> !mirage_block.stensor<{{[0-9]+}}x256xf16>
// CHECK: %[[E:.*]] = exp %[[X]]
// CHECK: %[[S:.*]] = reduction %[[E]] dim 1 : !mirage_block.stensor<{{[0-9]+}}x256xf16> -> !mirage_block.stensor<{{[0-9]+}}x1xf16>
// CHECK: div %[[E]], %[[S]]
// CHECK-LABEL: func.func @softmax_candidate_1
func.func @softmax(%S: tensor<8x256xf16>) -> tensor<8x256xf16> {
  %E = mirage_kernel.exp %S : tensor<8x256xf16>
  %R = mirage_kernel.reduction %E dim 1 : tensor<8x256xf16> -> tensor<8x1xf16>
  %P = mirage_kernel.div %E, %R : tensor<8x256xf16>, tensor<8x1xf16> -> tensor<8x256xf16>
  return %P : tensor<8x256xf16>
}
