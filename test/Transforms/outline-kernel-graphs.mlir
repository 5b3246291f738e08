// RUN: mirage-opt %s --split-input-file --mirage-outline-kernel-graphs | FileCheck %s

// Kernel ops before and after an op the kernel dialect lacks become two
// kernel-graph functions, called where the ops were.
// CHECK-LABEL: func.func @around_transpose
// CHECK-SAME: (%[[X:.*]]: tensor<8x64xf16>, %[[W:.*]]: tensor<64x32xf16>)
// CHECK-NEXT: %[[M:.*]] = call @around_transpose_graph0(%[[X]], %[[W]]) : (tensor<8x64xf16>, tensor<64x32xf16>) -> tensor<8x32xf16>
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<32x8xf16>
// CHECK-NEXT: %[[T:.*]] = linalg.transpose ins(%[[M]] : tensor<8x32xf16>)
// CHECK: %[[S:.*]] = call @around_transpose_graph1(%[[T]]) : (tensor<32x8xf16>) -> tensor<32x8xf16>
// CHECK-NEXT: return %[[S]]
// CHECK: func.func @around_transpose_graph0(%[[A0:.*]]: tensor<8x64xf16>, %[[A1:.*]]: tensor<64x32xf16>) -> tensor<8x32xf16>
// CHECK-NEXT: %[[EX:.*]] = mirage_kernel.exp %[[A0]]
// CHECK-NEXT: %[[MM:.*]] = mirage_kernel.matmul %[[EX]], %[[A1]]
// CHECK-NEXT: return %[[MM]]
// CHECK: func.func @around_transpose_graph1(%[[B0:.*]]: tensor<32x8xf16>) -> tensor<32x8xf16>
// CHECK-NEXT: mirage_kernel.silu %[[B0]]
func.func @around_transpose(%x: tensor<8x64xf16>, %w: tensor<64x32xf16>) -> tensor<32x8xf16> {
  %e = mirage_kernel.exp %x : tensor<8x64xf16>
  %m = mirage_kernel.matmul %e, %w : tensor<8x64xf16>, tensor<64x32xf16> -> tensor<8x32xf16>
  %empty = tensor.empty() : tensor<32x8xf16>
  %t = linalg.transpose ins(%m : tensor<8x32xf16>) outs(%empty : tensor<32x8xf16>) permutation = [1, 0]
  %s = mirage_kernel.silu %t : tensor<32x8xf16>
  return %s : tensor<32x8xf16>
}

// -----

// %a feeds the host ops and %b: %a and %b cannot share a function (the call
// would need its own result). %c depends on nothing the host computes: it
// joins %a's function, whose two results both leave it.
// CHECK-LABEL: func.func @no_cycle
// CHECK-NEXT: %[[AC:.*]]:2 = call @no_cycle_graph0(%arg0) : (tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>)
// CHECK-NEXT: %[[H:.*]] = tensor.collapse_shape %[[AC]]#0
// CHECK-NEXT: %[[H2:.*]] = tensor.expand_shape %[[H]]
// CHECK-NEXT: %[[B:.*]] = call @no_cycle_graph1(%[[AC]]#0, %[[H2]]) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: return %[[B]], %[[AC]]#1
// CHECK: func.func @no_cycle_graph0(%[[P:.*]]: tensor<8x8xf32>)
// CHECK-NEXT: %[[A:.*]] = mirage_kernel.exp %[[P]]
// CHECK-NEXT: %[[C:.*]] = mirage_kernel.sqrt %[[P]]
// CHECK-NEXT: return %[[A]], %[[C]]
// CHECK: func.func @no_cycle_graph1(
// CHECK-NEXT: mirage_kernel.add
// CHECK-NEXT: return
func.func @no_cycle(%x: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %a = mirage_kernel.exp %x : tensor<8x8xf32>
  %h = tensor.collapse_shape %a [[0, 1]] : tensor<8x8xf32> into tensor<64xf32>
  %h2 = tensor.expand_shape %h [[0, 1]] output_shape [8, 8] : tensor<64xf32> into tensor<8x8xf32>
  %b = mirage_kernel.add %a, %h2 : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %c = mirage_kernel.sqrt %x : tensor<8x8xf32>
  return %b, %c : tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

// Ops with side effects keep their order: the kernel ops between the two
// calls stay between them.
// CHECK-LABEL: func.func @effects
// CHECK-NEXT: call @log(%arg0)
// CHECK-NEXT: %[[A:.*]] = call @effects_graph0(%arg0)
// CHECK-NEXT: call @log(%[[A]])
// CHECK-NEXT: return %[[A]]
func.func private @log(tensor<4x4xf32>)
func.func @effects(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  call @log(%x) : (tensor<4x4xf32>) -> ()
  %a = mirage_kernel.exp %x : tensor<4x4xf32>
  call @log(%a) : (tensor<4x4xf32>) -> ()
  return %a : tensor<4x4xf32>
}

// -----

// A function that is already a kernel graph, and one without kernel ops,
// stay as they are.
// CHECK-LABEL: func.func @graph
// CHECK-NEXT: mirage_kernel.exp
// CHECK-NEXT: return
// CHECK-LABEL: func.func @host
// CHECK-NEXT: tensor.empty
// CHECK-NEXT: return
// CHECK-NOT: func.func
func.func @graph(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %a = mirage_kernel.exp %x : tensor<4x4xf32>
  return %a : tensor<4x4xf32>
}
func.func @host() -> tensor<4x4xf32> {
  %e = tensor.empty() : tensor<4x4xf32>
  return %e : tensor<4x4xf32>
}

// -----

// Kernel ops inside a loop body are outlined within that body.
// CHECK-LABEL: func.func @in_loop
// CHECK: scf.for
// CHECK-NEXT: %[[N:.*]] = func.call @in_loop_graph0(%{{.*}}) : (tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT: scf.yield %[[N]]
// CHECK: func.func @in_loop_graph0(
// CHECK-NEXT: mirage_kernel.exp
// CHECK-NEXT: mirage_kernel.sqrt
func.func @in_loop(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%v = %x) -> tensor<4x4xf32> {
    %a = mirage_kernel.exp %v : tensor<4x4xf32>
    %b = mirage_kernel.sqrt %a : tensor<4x4xf32>
    scf.yield %b : tensor<4x4xf32>
  }
  return %r : tensor<4x4xf32>
}
