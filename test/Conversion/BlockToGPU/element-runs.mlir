// RUN: mirage-opt %s --split-input-file --convert-mirage-block-to-gpu | FileCheck %s
// RUN: mirage-opt %s --split-input-file --mirage-to-ptx-pipeline="chip=sm_90a" | FileCheck %s --check-prefix=PTX

// Elementwise work goes by runs of consecutive elements along the last
// dimension, one aligned vector access of up to 16 bytes per tile: a thread
// graph reads 8 halves of each operand at once (from global memory for a tile
// read once, in place), computes them one by one in f32 and writes the 8
// results with one store; the output saver copies 8 halves from shared to
// global memory with one load and one store, without converting them. (The
// thread graph's result is also the operand of a neg, so it has a shared tile
// and a saver that copies; the neg, whose one use is its saver, stores its 8
// results straight to the global output with one store.) A 1x256 tile over 32
// threads is one run of 8 per thread: no loop.
// CHECK-LABEL: gpu.func @gate_kernel0
// CHECK-NOT: scf.for
// CHECK: %[[X:.*]] = llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<8xf16>
// CHECK: %[[Y:.*]] = llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<8xf16>
// CHECK-COUNT-8: math.exp
// The body's values are rounded to f16 two at a time (one packed conversion
// per pair of the run).
// CHECK-COUNT-4: nvvm.convert.f32x2.to.f16x2
// CHECK-COUNT-8: arith.mulf
// CHECK-COUNT-4: nvvm.convert.f32x2.to.f16x2
// CHECK: llvm.store %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK-NOT: arith.extf
// CHECK: %[[R:.*]] = llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xf16>
// CHECK-NEXT: memref.extract_aligned_pointer_as_index %arg2
// CHECK-NOT: arith.truncf
// CHECK: llvm.store %[[R]], %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<1>
// CHECK: gpu.barrier
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xf16>
// CHECK-COUNT-8: arith.negf
// CHECK-NOT: !llvm.ptr<3>
// CHECK: memref.extract_aligned_pointer_as_index %arg3
// CHECK-NOT: !llvm.ptr<3>
// CHECK: llvm.store %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<1>
// PTX-LABEL: .visible .entry gate_kernel0(
// PTX-COUNT-2: ld.global.v4.b32
// PTX: st.shared.v4.b32
// PTX: ld.shared.v4.b32
// PTX: st.global.v4.b32
// PTX-NOT: ld.global.b16
func.func @gate(%x: tensor<2x256xf16>, %y: tensor<2x256xf16>) -> tensor<2x256xf16> {
  %o:2 = mirage_kernel.graph_def(%X = %x : tensor<2x256xf16>, %Y = %y : tensor<2x256xf16>) -> (tensor<2x256xf16>, tensor<2x256xf16>)
      grid [2, 1, 1] block [32, 1, 1] forloop 1 {
    %xt = input_loader %X imap <x = 0> : tensor<2x256xf16> -> !mirage_block.stensor<1x256xf16>
    %yt = input_loader %Y imap <x = 0> : tensor<2x256xf16> -> !mirage_block.stensor<1x256xf16>
    %g = thread_graph %xt, %yt : !mirage_block.stensor<1x256xf16>, !mirage_block.stensor<1x256xf16> -> !mirage_block.stensor<1x256xf16> {
    ^bb0(%a: f16, %b: f16):
      %e = exp %a : f16
      %m = mul %e, %b : f16
      yield %m : f16
    }
    %s = output_saver %g omap <x = 0> : !mirage_block.stensor<1x256xf16> -> tensor<2x256xf16>
    %n = neg %g : !mirage_block.stensor<1x256xf16>
    %sn = output_saver %n omap <x = 0> : !mirage_block.stensor<1x256xf16> -> tensor<2x256xf16>
    yield %s, %sn : tensor<2x256xf16>, tensor<2x256xf16>
  }
  return %o#0 : tensor<2x256xf16>
}

// -----

// An operand broadcast along the last dimension (16x1) is read once per run
// and used for all 8 elements; f32 results go by runs of 4 (16 bytes). The
// product's one use is its output saver: each run is stored straight to the
// global output, and the block needs no shared memory.
// CHECK-LABEL: func.func @scale(
// CHECK: mirage_kernel.launch @mirage_kernels::@scale_kernel0{{.*}} shared_memory 0 :
// CHECK-LABEL: gpu.func @scale_kernel0
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK: memref.load %arg1
// CHECK-NOT: memref.load
// CHECK-COUNT-4: arith.mulf
// CHECK-NOT: !llvm.ptr<3>
// CHECK: llvm.store %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
func.func @scale(%x: tensor<16x64xf32>, %s: tensor<16x1xf32>) -> tensor<16x64xf32> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<16x64xf32>, %S = %s : tensor<16x1xf32>) -> tensor<16x64xf32>
      grid [1, 1, 1] block [32, 1, 1] forloop 1 {
    %xt = input_loader %X imap <> : tensor<16x64xf32> -> !mirage_block.stensor<16x64xf32>
    %st = input_loader %S imap <> : tensor<16x1xf32> -> !mirage_block.stensor<16x1xf32>
    %m = mul %xt, %st : !mirage_block.stensor<16x64xf32>, !mirage_block.stensor<16x1xf32> -> !mirage_block.stensor<16x64xf32>
    %r = output_saver %m omap <> : !mirage_block.stensor<16x64xf32> -> tensor<16x64xf32>
    yield %r : tensor<16x64xf32>
  }
  return %o : tensor<16x64xf32>
}

// -----

// rms_norm of more rows than threads (not kept in registers) divides once
// per row (the reciprocal of its root mean square, kept in shared memory)
// and multiplies every element by it, 8 halves at a time.
// CHECK-LABEL: gpu.func @norm_kernel0
// CHECK: math.sqrt
// CHECK: arith.divf
// CHECK-NOT: arith.divf
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xf16>
// CHECK-COUNT-8: arith.mulf
// CHECK: llvm.store %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
// CHECK-NOT: arith.divf
// CHECK: gpu.return
func.func @norm(%x: tensor<256x64xf16>) -> tensor<256x64xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<256x64xf16>) -> tensor<256x64xf16>
      grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    %xt = input_loader %X imap <> : tensor<256x64xf16> -> !mirage_block.stensor<256x64xf16>
    %n = rms_norm %xt size 64 : !mirage_block.stensor<256x64xf16>
    %s = output_saver %n omap <> : !mirage_block.stensor<256x64xf16> -> tensor<256x64xf16>
    yield %s : tensor<256x64xf16>
  }
  return %o : tensor<256x64xf16>
}
