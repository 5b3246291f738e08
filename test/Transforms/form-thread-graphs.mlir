// RUN: mirage-opt %s --split-input-file --mirage-form-thread-graphs | FileCheck %s
// The fused function computes exactly what the unfused one does.
// RUN: sed -n '1,/^\/\/ -----/p' %s > %t.chain.mlir
// RUN: mirage-opt %t.chain.mlir --mirage-form-thread-graphs | sed -e '/^module {$/d' -e '/^}$/d' -e 's/@chain/@fused/' > %t.fused.mlir
// RUN: cat %t.chain.mlir %t.fused.mlir | mirage-opt --mirage-check-equivalence -o /dev/null 2>&1 | FileCheck %s --check-prefix=SAME
// SAME: remark: is equivalent to @{{.*}}float64 relative error 0.0e+00

// A tree of four elementwise ops, one broadcast operand: one thread graph.
// CHECK-LABEL: func.func @chain
// CHECK: %[[X:.*]] = input_loader %{{.*}} : tensor<8x64xf16> -> !mirage_block.stensor<1x64xf16>
// CHECK: %[[G:.*]] = input_loader
// CHECK: %[[B:.*]] = input_loader
// CHECK: %[[T:.*]] = thread_graph %[[X]], %[[G]], %[[B]] : !mirage_block.stensor<1x64xf16>, !mirage_block.stensor<1x64xf16>, !mirage_block.stensor<1x1xf16> -> !mirage_block.stensor<1x64xf16> {
// CHECK-NEXT: ^bb0(%[[A0:.*]]: f16, %[[A1:.*]]: f16, %[[A2:.*]]: f16):
// CHECK-NEXT:   %[[S:.*]] = silu %[[A0]] : f16
// CHECK-NEXT:   %[[M:.*]] = mul %[[S]], %[[A1]] : f16
// CHECK-NEXT:   %[[H:.*]] = mul_scalar %[[M]] by 5.000000e-01 : f16
// CHECK-NEXT:   %[[R:.*]] = add %[[H]], %[[A2]] : f16
// CHECK-NEXT:   yield %[[R]] : f16
// CHECK-NEXT: }
// CHECK-NEXT: output_saver %[[T]]
func.func @chain(%x: tensor<8x64xf16>, %g: tensor<8x64xf16>, %b: tensor<8x1xf16>) -> tensor<8x64xf16> {
  %0 = mirage_kernel.graph_def(%a0 = %x : tensor<8x64xf16>, %a1 = %g : tensor<8x64xf16>, %a2 = %b : tensor<8x1xf16>) -> tensor<8x64xf16> grid [8, 1, 1] block [128, 1, 1] forloop 1 {
    %1 = input_loader %a0 imap <x = 0> : tensor<8x64xf16> -> !mirage_block.stensor<1x64xf16>
    %2 = input_loader %a1 imap <x = 0> : tensor<8x64xf16> -> !mirage_block.stensor<1x64xf16>
    %3 = input_loader %a2 imap <x = 0> : tensor<8x1xf16> -> !mirage_block.stensor<1x1xf16>
    %4 = silu %1 : !mirage_block.stensor<1x64xf16>
    %5 = mul %4, %2 : !mirage_block.stensor<1x64xf16>, !mirage_block.stensor<1x64xf16> -> !mirage_block.stensor<1x64xf16>
    %6 = mul_scalar %5 by 5.000000e-01 : !mirage_block.stensor<1x64xf16>
    %7 = add %6, %3 : !mirage_block.stensor<1x64xf16>, !mirage_block.stensor<1x1xf16> -> !mirage_block.stensor<1x64xf16>
    %8 = output_saver %7 omap <x = 0> : !mirage_block.stensor<1x64xf16> -> tensor<8x64xf16>
    yield %8 : tensor<8x64xf16>
  }
  return %0 : tensor<8x64xf16>
}

// -----

// Not fused: a smaller tile (it would be recomputed per broadcast
// element) and a value with two uses (it would be computed twice), so the
// ops using it stay single.
// CHECK-LABEL: func.func @kept
// CHECK: %[[E:.*]] = exp %{{.*}} : !mirage_block.stensor<1x1xf16>
// CHECK: %[[T:.*]] = thread_graph %{{.*}}, %[[E]]
// CHECK-NEXT: ^bb0
// CHECK-NEXT: exp
// CHECK-NEXT: add
// CHECK-NEXT: yield
// CHECK-NEXT: }
// CHECK-NEXT: mul %[[T]], %[[T]]
// CHECK-NEXT: add %[[T]], %{{.*}} :
func.func @kept(%x: tensor<8x64xf16>, %b: tensor<8x1xf16>) -> (tensor<8x64xf16>, tensor<8x64xf16>) {
  %0:2 = mirage_kernel.graph_def(%a0 = %x : tensor<8x64xf16>, %a1 = %b : tensor<8x1xf16>) -> (tensor<8x64xf16>, tensor<8x64xf16>) grid [8, 1, 1] block [128, 1, 1] forloop 1 {
    %1 = input_loader %a0 imap <x = 0> : tensor<8x64xf16> -> !mirage_block.stensor<1x64xf16>
    %2 = input_loader %a1 imap <x = 0> : tensor<8x1xf16> -> !mirage_block.stensor<1x1xf16>
    %3 = exp %2 : !mirage_block.stensor<1x1xf16>
    %4 = exp %1 : !mirage_block.stensor<1x64xf16>
    %5 = add %4, %3 : !mirage_block.stensor<1x64xf16>, !mirage_block.stensor<1x1xf16> -> !mirage_block.stensor<1x64xf16>
    %6 = mul %5, %5 : !mirage_block.stensor<1x64xf16>, !mirage_block.stensor<1x64xf16> -> !mirage_block.stensor<1x64xf16>
    %7 = add %5, %1 : !mirage_block.stensor<1x64xf16>, !mirage_block.stensor<1x64xf16> -> !mirage_block.stensor<1x64xf16>
    %8 = output_saver %6 omap <x = 0> : !mirage_block.stensor<1x64xf16> -> tensor<8x64xf16>
    %9 = output_saver %7 omap <x = 0> : !mirage_block.stensor<1x64xf16> -> tensor<8x64xf16>
    yield %8, %9 : tensor<8x64xf16>, tensor<8x64xf16>
  }
  return %0#0, %0#1 : tensor<8x64xf16>, tensor<8x64xf16>
}

// -----

// Not fused across loop phases: the loop-invariant exp stays before the
// loop; the per-iteration chain and the post-loop chain each become one
// thread graph.
// CHECK-LABEL: func.func @phases
// CHECK: %[[E:.*]] = exp %{{.*}} : !mirage_block.stensor<1x16xf16>
// CHECK: %[[IN:.*]] = thread_graph %{{.*}}, %[[E]]
// CHECK: neg
// CHECK: mul
// CHECK: forloop_accum %[[IN]]
// CHECK: thread_graph
// CHECK: sqrt
// CHECK: silu
func.func @phases(%x: tensor<4x64xf16>, %y: tensor<4x16xf16>) -> tensor<4x16xf16> {
  %0 = mirage_kernel.graph_def(%a0 = %x : tensor<4x64xf16>, %a1 = %y : tensor<4x16xf16>) -> tensor<4x16xf16> grid [4, 1, 1] block [128, 1, 1] forloop 4 {
    %1 = input_loader %a0 imap <x = 0> fmap 1 : tensor<4x64xf16> -> !mirage_block.stensor<1x16xf16>
    %2 = input_loader %a1 imap <x = 0> : tensor<4x16xf16> -> !mirage_block.stensor<1x16xf16>
    %3 = exp %2 : !mirage_block.stensor<1x16xf16>
    %4 = neg %1 : !mirage_block.stensor<1x16xf16>
    %5 = mul %4, %3 : !mirage_block.stensor<1x16xf16>, !mirage_block.stensor<1x16xf16> -> !mirage_block.stensor<1x16xf16>
    %6 = forloop_accum %5 sum : !mirage_block.stensor<1x16xf16> -> !mirage_block.stensor<1x16xf16>
    %7 = sqrt %6 : !mirage_block.stensor<1x16xf16>
    %8 = silu %7 : !mirage_block.stensor<1x16xf16>
    %9 = output_saver %8 omap <x = 0> : !mirage_block.stensor<1x16xf16> -> tensor<4x16xf16>
    yield %9 : tensor<4x16xf16>
  }
  return %0 : tensor<4x16xf16>
}
