// RUN: mirage-opt %s --convert-mirage-block-to-gpu | FileCheck %s

// The rms_last and sum_last accumulators reduce each iteration's tile like
// any sum: few results with many terms split the terms over the threads
// (f32 partial sums in shared memory), and one thread per result adds the
// partials and the step to the accumulator. Here 16 results of 256 terms
// take 8 slices of 32 terms: 128 (result, slice) pairs, one per thread. The
// terms are consecutive halves: a slice takes 4 runs of 8 (slice s the runs
// s, s + 8, s + 16, s + 24), one 16-byte load each, and consecutive threads
// take consecutive slices of one row, so that a quarter warp reads 128
// consecutive bytes of it (the rows, 512 bytes apart, would all fall in the
// same memory banks).
// CHECK-LABEL: gpu.func @rms_rows_kernel0
// CHECK: %[[TID:.*]] = arith.addi %thread_id_x
// CHECK-DAG: %[[ACC:.*]] = memref.view %{{.*}} to memref<16xf32, #gpu.address_space<workgroup>>
// CHECK-DAG: %[[PARTIALS:.*]] = memref.view %{{.*}} to memref<128xf32, #gpu.address_space<workgroup>>
// CHECK: scf.for
// Each thread squares and adds its slice's terms: 128 pairs for 128
// threads are one round, no loop and no guard (pair = thread).
// CHECK: %[[ROUND:.*]] = arith.muli %c0{{.*}}, %c128
// CHECK: %[[PAIR:.*]] = arith.addi %[[ROUND]], %[[TID]]
// CHECK-NOT: arith.cmpi
// CHECK: arith.divui %[[PAIR]], %c8
// CHECK: %[[SLICE:.*]] = arith.remui %[[PAIR]], %c8
// CHECK: %{{.*}}:32 = scf.for %[[I:.*]] = %{{.*}} to %c4{{.*}} step %c4
// CHECK: %[[STEP:.*]] = arith.muli %[[I]], %c8
// CHECK: arith.addi %[[STEP]], %[[SLICE]]
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xf16>
// CHECK-COUNT-8: arith.mulf
// CHECK: memref.store %{{.*}}, %[[PARTIALS]]
// CHECK: gpu.barrier
// One thread per result (one round, guarded: 16 results, 128 threads): the
// partials in slice order, then the step.
// CHECK: %[[RESULT:.*]] = arith.addi %{{.*}}, %[[TID]]
// CHECK: %[[INSIDE:.*]] = arith.cmpi ult, %[[RESULT]], %c16
// CHECK: scf.if %[[INSIDE]]
// CHECK-COUNT-8: memref.load %[[PARTIALS]]
// CHECK: memref.load %[[ACC]]
// CHECK: arith.addf
// CHECK: memref.store %{{.*}}, %[[ACC]]
// CHECK: gpu.barrier
func.func @rms_rows(%x: tensor<16x1024xf16>) -> tensor<16x1xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<16x1024xf16>) -> tensor<16x1xf16>
      grid [1, 1, 1] block [128, 1, 1] forloop 4 {
    %xt = input_loader %X imap <> fmap 1 : tensor<16x1024xf16> -> !mirage_block.stensor<16x256xf16>
    %r = forloop_accum %xt rms_last : !mirage_block.stensor<16x256xf16> -> !mirage_block.stensor<16x1xf16>
    %s = output_saver %r omap <> : !mirage_block.stensor<16x1xf16> -> tensor<16x1xf16>
    yield %s : tensor<16x1xf16>
  }
  return %o : tensor<16x1xf16>
}

// rms_last with an eps adds it to the mean of squares, under the root:
// sqrt(sum / (forloop * n) + eps).
// CHECK-LABEL: gpu.func @rms_rows_eps_kernel0
// CHECK: %[[N:.*]] = arith.constant 1.024000e+03 : f32
// CHECK: %[[MEAN:.*]] = arith.divf %{{.*}}, %[[N]]
// CHECK: %[[EPS:.*]] = arith.constant 9.99999997E-7 : f32
// CHECK: %[[SHIFTED:.*]] = arith.addf %[[MEAN]], %[[EPS]] : f32
// CHECK: math.sqrt %[[SHIFTED]] : f32
func.func @rms_rows_eps(%x: tensor<16x1024xf16>) -> tensor<16x1xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<16x1024xf16>) -> tensor<16x1xf16>
      grid [1, 1, 1] block [128, 1, 1] forloop 4 {
    %xt = input_loader %X imap <> fmap 1 : tensor<16x1024xf16> -> !mirage_block.stensor<16x256xf16>
    %r = forloop_accum %xt rms_last eps 1.0e-6 : !mirage_block.stensor<16x256xf16> -> !mirage_block.stensor<16x1xf16>
    %s = output_saver %r omap <> : !mirage_block.stensor<16x1xf16> -> tensor<16x1xf16>
    yield %s : tensor<16x1xf16>
  }
  return %o : tensor<16x1xf16>
}
