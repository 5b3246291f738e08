// RUN: mirage-opt %s --convert-mirage-block-to-gpu | FileCheck %s

// The fused RMSNorm + Linear: loop-invariant ops before the scf.for over the
// for-loop, per-iteration ops and accumulation steps inside it, ops on
// accumulated values after it. Accumulators are f32 in shared memory.

func.func @fused(%x: tensor<2x256xf16>, %w: tensor<256x64xf16>) -> tensor<2x64xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<2x256xf16>, %W = %w : tensor<256x64xf16>)
      -> tensor<2x64xf16> grid [4, 1, 1] block [128, 1, 1] forloop 8 {
    %xt = input_loader %X imap <> fmap 1 : tensor<2x256xf16> -> !mirage_block.stensor<2x32xf16>
    %wt = input_loader %W imap <x = 1> fmap 0 : tensor<256x64xf16> -> !mirage_block.stensor<32x16xf16>
    %mm = matmul %xt, %wt : !mirage_block.stensor<2x32xf16>, !mirage_block.stensor<32x16xf16> -> !mirage_block.stensor<2x16xf16>
    %acc = forloop_accum %mm sum : !mirage_block.stensor<2x16xf16> -> !mirage_block.stensor<2x16xf16>
    %rms = forloop_accum %xt rms_last : !mirage_block.stensor<2x32xf16> -> !mirage_block.stensor<2x1xf16>
    %y = div %acc, %rms : !mirage_block.stensor<2x16xf16>, !mirage_block.stensor<2x1xf16> -> !mirage_block.stensor<2x16xf16>
    %out = output_saver %y omap <x = 1> : !mirage_block.stensor<2x16xf16> -> tensor<2x64xf16>
    yield %out : tensor<2x64xf16>
  }
  return %o : tensor<2x64xf16>
}

// CHECK-LABEL: gpu.func @fused_kernel0
// CHECK-DAG: %[[ACC:.*]] = memref.view %{{.*}} to memref<32xf32, #gpu.address_space<workgroup>>
// CHECK-DAG: %[[RMS:.*]] = memref.view %{{.*}} to memref<2xf32, #gpu.address_space<workgroup>>
// CHECK-DAG: %[[MM:.*]] = memref.view %{{.*}} to memref<32xf16, #gpu.address_space<workgroup>>
// CHECK-DAG: %[[Y:.*]] = memref.view %{{.*}} to memref<32xf16, #gpu.address_space<workgroup>>
// Accumulators start at 0.
// CHECK: scf.for
// CHECK: memref.store %{{.*}}, %[[ACC]]
// CHECK: gpu.barrier
// CHECK: scf.for
// CHECK: memref.store %{{.*}}, %[[RMS]]
// CHECK: gpu.barrier
// The for-loop.
// CHECK: %[[C8:.*]] = arith.constant 8 : index
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %[[C8]] step
// The matmul: one k-loop per result element, carrying four f32 partial sums.
// CHECK: scf.for
// CHECK: scf.for {{.*}} step %c4 iter_args({{.*}}) -> (f32, f32, f32, f32)
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: memref.store %{{.*}}, %[[MM]]
// CHECK: gpu.barrier
// sum: acc += mm.
// CHECK: memref.load %[[MM]]
// CHECK: memref.load %[[ACC]]
// CHECK: arith.addf
// CHECK: memref.store %{{.*}}, %[[ACC]]
// rms_last: rms += sum of squares of the row.
// CHECK: scf.for {{.*}} -> (f32, f32, f32, f32)
// CHECK: arith.mulf
// CHECK: memref.store %{{.*}}, %[[RMS]]
// CHECK: gpu.barrier
// CHECK: }
// After the loop: rms = sqrt(sum / (8 * 32)), then rounding to f16.
// CHECK: memref.load %[[ACC]]
// CHECK: arith.truncf
// CHECK: arith.extf
// CHECK: memref.store %{{.*}}, %[[ACC]]
// CHECK: memref.load %[[RMS]]
// CHECK: arith.constant 2.560000e+02 : f32
// CHECK: arith.divf
// CHECK: math.sqrt
// CHECK: memref.store %{{.*}}, %[[RMS]]
// The division reads both accumulators, broadcasting rms along columns.
// CHECK: memref.load %[[ACC]]
// CHECK: memref.load %[[RMS]]
// CHECK: arith.divf
// CHECK: memref.store %{{.*}}, %[[Y]]
// CHECK: gpu.return
