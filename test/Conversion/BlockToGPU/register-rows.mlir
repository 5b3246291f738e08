// RUN: mirage-opt %s --split-input-file --convert-mirage-block-to-gpu=row-programs=false | FileCheck %s
// RUN: mirage-opt %s --split-input-file --mirage-test-kernel-schedule="chip=sm_90a row-programs=false" -o /dev/null | FileCheck %s --check-prefix=SCHED
// RUN: mirage-opt %s --split-input-file --mirage-to-ptx-pipeline="chip=sm_90a row-programs=false" | FileCheck %s --check-prefix=PTX

// Row programs are off (row-programs=false): an rms_norm of whole rows in
// a body of whole rows is part of its row program (row-program.mlir); these
// show the rms_norm's own lowering, which bodies with other ops (a matmul
// after the norm) and rows whose runs do not split evenly (Qwen's below)
// take.
// An rms_norm whose groups stay in registers (RegisterRows): each thread
// reads its runs of a group once, straight from global memory (no copy into
// shared memory), the group's threads add their squares with shuffles, and
// each thread scales the runs it holds and stores them.

// One 4096-element row, 128 threads: 4 runs of 8 halves per thread (runs
// t, t + 128, t + 256, t + 384), a butterfly over the warp, then one f32 per
// warp in shared memory, added by every thread after one barrier. The result
// goes straight to the output tensor.
// SCHED-LABEL: kernel row#0 on sm_90a: threads 128, shared 16 bytes
// SCHED:         register rows #1 rms_norm width 8 lanes 128 runs 4
// SCHED-NEXT:    direct save #1 rms_norm -> #2 output_saver
// SCHED-NEXT:    buffer [0, 16) align 16
// CHECK-LABEL: gpu.func @row_kernel0
// CHECK-NOT: nvvm.cp.async
// CHECK: %[[WARPS:.*]] = memref.view %{{.*}} to memref<4xf32, #gpu.address_space<workgroup>>
// CHECK-COUNT-4: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<8xf16>
// CHECK-NOT: gpu.barrier
// CHECK: gpu.shuffle xor %{{.*}}, %c16_i32{{(_[0-9]+)?}}, %c32_i32{{.*}} : f32
// CHECK: gpu.shuffle xor %{{.*}}, %c8_i32{{(_[0-9]+)?}}, %c32_i32{{.*}} : f32
// CHECK: gpu.shuffle xor %{{.*}}, %c4_i32{{(_[0-9]+)?}}, %c32_i32{{.*}} : f32
// CHECK: gpu.shuffle xor %{{.*}}, %c2_i32{{(_[0-9]+)?}}, %c32_i32{{.*}} : f32
// CHECK: gpu.shuffle xor %{{.*}}, %c1_i32{{(_[0-9]+)?}}, %c32_i32{{.*}} : f32
// CHECK: scf.if
// CHECK: memref.store %{{.*}}, %[[WARPS]]
// CHECK: gpu.barrier
// CHECK-COUNT-4: memref.load %[[WARPS]]
// CHECK: math.sqrt
// CHECK-COUNT-4: llvm.store %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<1>
// CHECK: gpu.barrier
// CHECK-NEXT: gpu.return
// PTX-LABEL: .visible .entry row_kernel0(
// PTX-NOT: cp.async
// PTX-COUNT-4: ld.global.v4.b32
// PTX-COUNT-5: shfl.sync.bfly.b32
// PTX: bar.sync
// PTX-COUNT-4: st.global.v4.b32
func.func @row(%x: tensor<1x4096xf16>) -> tensor<1x4096xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<1x4096xf16>) -> tensor<1x4096xf16>
      grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    %xt = input_loader %X imap <> : tensor<1x4096xf16> -> !mirage_block.stensor<1x4096xf16>
    %n = rms_norm %xt size 4096 : !mirage_block.stensor<1x4096xf16>
    %s = output_saver %n omap <> : !mirage_block.stensor<1x4096xf16> -> tensor<1x4096xf16>
    yield %s : tensor<1x4096xf16>
  }
  return %o : tensor<1x4096xf16>
}

// -----

// Qwen2.5-7B's 3584-element rows: 448 runs of 8 over 128 threads, so the
// fourth run of a thread exists for threads 0-63 only. Its load yields zeros
// elsewhere (their squares add nothing), and its scaling and store are
// guarded.
// SCHED: register rows #1 rms_norm width 8 lanes 128 runs 4
// CHECK-LABEL: gpu.func @qwen_row_kernel0
// CHECK-COUNT-3: llvm.load %{{.*}} : !llvm.ptr<1> -> vector<8xbf16>
// CHECK: %[[INSIDE:.*]] = arith.cmpi ult, %{{.*}}, %c448
// CHECK: scf.if %[[INSIDE]] -> (f32, f32, f32, f32, f32, f32, f32, f32)
// CHECK: llvm.load %{{.*}} : !llvm.ptr<1> -> vector<8xbf16>
// CHECK: } else {
// CHECK: math.sqrt
// CHECK-COUNT-3: llvm.store %{{.*}} : vector<8xbf16>, !llvm.ptr<1>
// CHECK: %[[LAST:.*]] = arith.cmpi ult, %{{.*}}, %c448
// CHECK-NEXT: scf.if %[[LAST]] {
// CHECK: arith.mulf
// CHECK: llvm.store %{{.*}} : vector<8xbf16>, !llvm.ptr<1>
func.func @qwen_row(%x: tensor<2048x3584xbf16>) -> tensor<2048x3584xbf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<2048x3584xbf16>) -> tensor<2048x3584xbf16>
      grid [2048, 1, 1] block [128, 1, 1] forloop 1 {
    %xt = input_loader %X imap <x = 0> : tensor<2048x3584xbf16> -> !mirage_block.stensor<1x3584xbf16>
    %n = rms_norm %xt size 3584 : !mirage_block.stensor<1x3584xbf16>
    %s = output_saver %n omap <x = 0> : !mirage_block.stensor<1x3584xbf16> -> tensor<2048x3584xbf16>
    yield %s : tensor<2048x3584xbf16>
  }
  return %o : tensor<2048x3584xbf16>
}

// -----

// 16 rows of 512 over 128 threads: 8 lanes per row, all in one warp, so the
// butterfly takes offsets 4, 2, 1 and no shared memory or barrier is needed
// before the scaling. The result feeds another op, so it gets a shared
// tile.
// SCHED-LABEL: kernel rows_then_exp#0 on sm_90a
// SCHED: register rows #1 rms_norm width 8 lanes 8 runs 8
// SCHED-NOT: direct save #1
// CHECK-LABEL: gpu.func @rows_then_exp_kernel0
// CHECK-NOT: gpu.shuffle xor %{{.*}}, %c8_i32
// CHECK: gpu.shuffle xor %{{.*}}, %c4_i32{{(_[0-9]+)?}}, %c32_i32{{.*}} : f32
// CHECK: gpu.shuffle xor %{{.*}}, %c2_i32{{(_[0-9]+)?}}, %c32_i32{{.*}} : f32
// CHECK: gpu.shuffle xor %{{.*}}, %c1_i32{{(_[0-9]+)?}}, %c32_i32{{.*}} : f32
// CHECK-NOT: gpu.barrier
// CHECK: math.sqrt
// CHECK-COUNT-8: llvm.store %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK: math.exp
func.func @rows_then_exp(%x: tensor<16x512xf16>) -> tensor<16x512xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<16x512xf16>) -> tensor<16x512xf16>
      grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    %xt = input_loader %X imap <> : tensor<16x512xf16> -> !mirage_block.stensor<16x512xf16>
    %n = rms_norm %xt size 512 : !mirage_block.stensor<16x512xf16>
    %e = exp %n : !mirage_block.stensor<16x512xf16>
    %s = output_saver %e omap <> : !mirage_block.stensor<16x512xf16> -> tensor<16x512xf16>
    yield %s : tensor<16x512xf16>
  }
  return %o : tensor<16x512xf16>
}

// -----

// More groups than threads: the rows are not kept in registers; the input
// is preloaded (read twice) and the sums split as usual.
// SCHED-LABEL: kernel many_rows#0 on sm_90a
// SCHED-NOT: register rows
// SCHED: preloaded #0 input_loader
// CHECK-LABEL: gpu.func @many_rows_kernel0
// CHECK: nvvm.cp.async.shared.global
func.func @many_rows(%x: tensor<256x64xf16>) -> tensor<256x64xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<256x64xf16>) -> tensor<256x64xf16>
      grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    %xt = input_loader %X imap <> : tensor<256x64xf16> -> !mirage_block.stensor<256x64xf16>
    %n = rms_norm %xt size 64 : !mirage_block.stensor<256x64xf16>
    %s = output_saver %n omap <> : !mirage_block.stensor<256x64xf16> -> tensor<256x64xf16>
    yield %s : tensor<256x64xf16>
  }
  return %o : tensor<256x64xf16>
}
