// RUN: mirage-opt %s --split-input-file --convert-mirage-block-to-gpu | FileCheck %s
// RUN: mirage-opt %s --split-input-file --convert-mirage-block-to-gpu=tensor-cores=false | FileCheck %s --check-prefix=SIMT
// RUN: mirage-opt %s --split-input-file --mirage-to-ptx-pipeline=chip=sm_90a | FileCheck %s --check-prefix=PTX

// A unary elementwise op that is the only reader of a matmul's result runs
// as the matmul's epilogue: each f32 sum is rounded to the matmul's element
// type (as the tile it replaces would hold it; two sums at a time by the
// packed conversion, not one `cvt.rn.f16.f32` each), the op applied, and the
// result stored into the op's tile; the matmul's own tile never exists: the
// kernel's shared tiles are Q, K and exp's. exp(x) is 2^(x log2 e): one
// multiply and the chip's ex2.approx, not libdevice's range-reduced expf
// (ex2.approx.ftz after cvt.sat): relative error at most 2^-18 on an H100
// (docs/CodeGeneration.md), far below an f16 result's 2^-11.
// CHECK-LABEL: gpu.func @scores_kernel0
// CHECK-COUNT-3: memref.view
// CHECK-NOT: memref.view
// CHECK: nvvm.mma.sync
// CHECK: %[[R:.*]] = nvvm.convert.f32x2.to.f16x2 %{{.*}}, %{{.*}} {rnd = #nvvm.fp_rnd_mode<rn>} : vector<2xf16>
// CHECK: %[[H:.*]] = llvm.extractelement %[[R]][%{{.*}} : i32] : vector<2xf16>
// CHECK: %[[W:.*]] = arith.extf %[[H]] : f16 to f32
// CHECK: %[[L:.*]] = arith.mulf %[[W]], %{{.*}} : f32
// CHECK: math.exp2 %[[L]] : f32
// CHECK: gpu.barrier
// CHECK-NOT: math.exp
// CHECK: gpu.return
// SIMT-LABEL: gpu.func @scores_kernel0
// SIMT: arith.mulf
// SIMT: %[[R:.*]] = arith.truncf %{{.*}} : f32 to f16
// SIMT: %[[W:.*]] = arith.extf %[[R]] : f16 to f32
// SIMT: %[[L:.*]] = arith.mulf %[[W]], %{{.*}} : f32
// SIMT: math.exp2 %[[L]] : f32
// SIMT: gpu.barrier
// SIMT-NOT: math.exp
// SIMT: gpu.return
// PTX-LABEL: .entry scores_kernel0
// PTX: mma.sync
// PTX-NOT: cvt.sat
// PTX-NOT: cvt.rn.f16.f32
// PTX: cvt.rn.f16x2.f32
// PTX-NOT: cvt.rn.f16.f32
// PTX: ex2.approx.f32
// PTX-NOT: cvt.sat
// PTX: ret;
func.func @scores(%q: tensor<16x64xf16>, %k: tensor<64x64xf16>) -> tensor<16x64xf16> {
  %o = mirage_kernel.graph_def(%Q = %q : tensor<16x64xf16>, %K = %k : tensor<64x64xf16>) -> tensor<16x64xf16>
      grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    %qt = input_loader %Q imap <> : tensor<16x64xf16> -> !mirage_block.stensor<16x64xf16>
    %kt = input_loader %K imap <> : tensor<64x64xf16> -> !mirage_block.stensor<64x64xf16>
    %p = matmul %qt, %kt : !mirage_block.stensor<16x64xf16>, !mirage_block.stensor<64x64xf16> -> !mirage_block.stensor<16x64xf16>
    %e = exp %p : !mirage_block.stensor<16x64xf16>
    %s = output_saver %e omap <> : !mirage_block.stensor<16x64xf16> -> tensor<16x64xf16>
    yield %s : tensor<16x64xf16>
  }
  return %o : tensor<16x64xf16>
}

// -----

// mul_scalar takes its factor along. An f32 matmul result needs no rounding.
// CHECK-LABEL: gpu.func @scaled_kernel0
// CHECK: nvvm.mma.sync
// CHECK-NOT: arith.truncf
// CHECK: arith.mulf %{{.*}}, %[[F:.*]] : f32
// CHECK: gpu.barrier
func.func @scaled(%q: tensor<16x64xf16>, %k: tensor<64x64xf16>) -> tensor<16x64xf32> {
  %o = mirage_kernel.graph_def(%Q = %q : tensor<16x64xf16>, %K = %k : tensor<64x64xf16>) -> tensor<16x64xf32>
      grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    %qt = input_loader %Q imap <> : tensor<16x64xf16> -> !mirage_block.stensor<16x64xf16>
    %kt = input_loader %K imap <> : tensor<64x64xf16> -> !mirage_block.stensor<64x64xf16>
    %p = matmul %qt, %kt : !mirage_block.stensor<16x64xf16>, !mirage_block.stensor<64x64xf16> -> !mirage_block.stensor<16x64xf32>
    %y = mul_scalar %p by 1.250000e-01 : !mirage_block.stensor<16x64xf32>
    %s = output_saver %y omap <> : !mirage_block.stensor<16x64xf32> -> tensor<16x64xf32>
    yield %s : tensor<16x64xf32>
  }
  return %o : tensor<16x64xf32>
}

// -----

// A result read twice is stored; exp then runs as an op of its own, reading
// the matmul's tile. Its result, whose one use is its output saver, has no
// tile: the kernel's shared tiles are Q, K and the matmul's, and exp stores
// straight to its global output.
// CHECK-LABEL: gpu.func @shared_result_kernel0
// CHECK-COUNT-3: memref.view
// CHECK-NOT: memref.view
// CHECK: nvvm.mma.sync
// CHECK-NOT: math.exp
// CHECK: gpu.barrier
// CHECK: math.exp
// CHECK-NOT: !llvm.ptr<3>
// CHECK: memref.extract_aligned_pointer_as_index %arg2
// CHECK-NOT: !llvm.ptr<3>
// CHECK: llvm.store %{{.*}} : vector<8xf16>, !llvm.ptr<1>
func.func @shared_result(%q: tensor<16x64xf16>, %k: tensor<64x64xf16>) -> (tensor<16x64xf16>, tensor<16x64xf16>) {
  %o:2 = mirage_kernel.graph_def(%Q = %q : tensor<16x64xf16>, %K = %k : tensor<64x64xf16>) -> (tensor<16x64xf16>, tensor<16x64xf16>)
      grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    %qt = input_loader %Q imap <> : tensor<16x64xf16> -> !mirage_block.stensor<16x64xf16>
    %kt = input_loader %K imap <> : tensor<64x64xf16> -> !mirage_block.stensor<64x64xf16>
    %p = matmul %qt, %kt : !mirage_block.stensor<16x64xf16>, !mirage_block.stensor<64x64xf16> -> !mirage_block.stensor<16x64xf16>
    %e = exp %p : !mirage_block.stensor<16x64xf16>
    %s0 = output_saver %e omap <> : !mirage_block.stensor<16x64xf16> -> tensor<16x64xf16>
    %s1 = output_saver %p omap <> : !mirage_block.stensor<16x64xf16> -> tensor<16x64xf16>
    yield %s0, %s1 : tensor<16x64xf16>, tensor<16x64xf16>
  }
  return %o#0, %o#1 : tensor<16x64xf16>, tensor<16x64xf16>
}
