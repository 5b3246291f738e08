// RUN: mirage-opt %s --convert-mirage-block-to-gpu | FileCheck %s

// The rms_last and sum_last accumulators of at most one result per thread
// keep lane partials: every (result, lane) pair is one thread's, and each
// iteration the thread adds its runs of the row to its own f32 slot in
// shared memory, with no barrier (the pipeline's barrier at the top of the
// next iteration orders the reads before the stage is refilled). Here 16
// results of 256 terms, consecutive halves read in runs of 8 (32 runs a
// row): 8 lanes a row (the most that divide 32 and leave 16 x 8 <= 128
// threads), lane l taking the runs l, l + 8, l + 16, l + 24, one 16-byte
// load each, so that a row's 8 lanes, consecutive threads, read 128
// consecutive bytes of it (the rows, 512 bytes apart, would all fall in
// the same memory banks). After the loop, one thread per result adds its
// 8 slots, pairwise, to the accumulator.
// CHECK-LABEL: gpu.func @rms_rows_kernel0
// CHECK: %[[TID:.*]] = arith.addi %thread_id_x
// CHECK-DAG: %[[ACC:.*]] = memref.view %{{.*}} to memref<16xf32, #gpu.address_space<workgroup>>
// CHECK-DAG: %[[SLOTS:.*]] = memref.view %{{.*}} to memref<128xf32, #gpu.address_space<workgroup>>
// CHECK: scf.for
// CHECK: gpu.barrier
// 128 pairs for 128 threads are one round, no loop and no guard (pair =
// thread).
// CHECK: %[[ROUND:.*]] = arith.muli %c0{{.*}}, %c128
// CHECK: %[[PAIR:.*]] = arith.addi %[[ROUND]], %[[TID]]
// CHECK-NOT: arith.cmpi
// CHECK: %[[ROW:.*]] = arith.divui %[[PAIR]], %c8
// CHECK: %[[LANE:.*]] = arith.remui %[[PAIR]], %c8
// CHECK: %{{.*}}:32 = scf.for %[[I:.*]] = %{{.*}} to %c4{{.*}} step %c4
// CHECK: %[[STEP:.*]] = arith.muli %[[I]], %c8
// CHECK: arith.addi %[[STEP]], %[[LANE]]
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xf16>
// CHECK-COUNT-8: arith.mulf
// CHECK: scf.yield
// CHECK: %[[SLOT:.*]] = arith.addi %{{.*}}, %[[LANE]]
// CHECK: memref.load %[[SLOTS]][%[[SLOT]]]
// CHECK: memref.store %{{.*}}, %[[SLOTS]][%[[SLOT]]]
// CHECK-NEXT: }
// After the loop, past a barrier, one thread per result (one round,
// guarded: 16 results, 128 threads): the accumulator plus its 8 slots,
// added pairwise.
// CHECK-NEXT: gpu.barrier
// CHECK: %[[RESULT:.*]] = arith.addi %{{.*}}, %[[TID]]
// CHECK: %[[INSIDE:.*]] = arith.cmpi ult, %[[RESULT]], %c16
// CHECK: scf.if %[[INSIDE]]
// CHECK-COUNT-8: memref.load %[[SLOTS]]
// CHECK: memref.load %[[ACC]]
// CHECK-COUNT-8: arith.addf
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
