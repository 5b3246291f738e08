// RUN: mirage-opt %s --split-input-file --convert-mirage-block-to-gpu | FileCheck %s
// RUN: mirage-opt %s --split-input-file --mirage-test-kernel-schedule=chip=sm_90a -o /dev/null | FileCheck %s --check-prefix=SCHED
// RUN: mirage-opt %s --split-input-file --mirage-to-ptx-pipeline=chip=sm_90a | FileCheck %s --check-prefix=PTX
// RUN: mirage-opt %s --split-input-file --convert-mirage-block-to-gpu=row-programs=false | FileCheck %s --check-prefix=OFF

// Row programs: a graph_def of one iteration whose loaders load whole rows,
// whose ops are elementwise ops and sums of rows, runs in registers
// (KernelSchedule::rowProgram). Each thread reads its runs of its row once,
// in place from global memory, computes every op on them, adds a row with
// shuffles (and one f32 per warp in shared memory, after one barrier, when
// a row is wider than a warp) and stores its runs straight to global memory.

// A softmax of one 4096-element row over 128 threads: 4 runs of 8 halves
// per thread (runs t, t + 128, t + 256, t + 384), exponentials rounded to
// f16 and kept, a butterfly over each warp, one barrier for the 4 warps'
// sums, the row's sum rounded to f16, then the divisions (products with
// the sum's reciprocal, taken once) and 4 stores.
// SCHED-LABEL: kernel softmax#0 on sm_90a: threads 128, shared 16 bytes
// SCHED:         row program width 8 lanes 128 runs 4
// SCHED-NEXT:    buffer [0, 16) align 16
// CHECK-LABEL: gpu.func @softmax_kernel0
// CHECK-NOT: nvvm.cp.async
// CHECK: %[[WARPS:.*]] = memref.view %{{.*}} to memref<4xf32, #gpu.address_space<workgroup>>
// CHECK-COUNT-4: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<8xf16>
// CHECK-NOT: gpu.barrier
// CHECK-COUNT-32: math.exp
// CHECK-NOT: gpu.barrier
// CHECK: gpu.shuffle xor %{{.*}}, %c16_i32{{(_[0-9]+)?}}, %c32_i32{{.*}} : f32
// CHECK: gpu.shuffle xor %{{.*}}, %c1_i32{{(_[0-9]+)?}}, %c32_i32{{.*}} : f32
// CHECK: scf.if
// CHECK: memref.store %{{.*}}, %[[WARPS]]
// CHECK: gpu.barrier
// CHECK-COUNT-4: memref.load %[[WARPS]]
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: %[[RECIPROCAL:.*]] = arith.divf %{{.*}}, %{{.*}} fastmath<afn> : f32
// CHECK-NOT: arith.divf
// CHECK-COUNT-32: arith.mulf %{{.*}}, %[[RECIPROCAL]] : f32
// CHECK-NOT: gpu.barrier
// CHECK-COUNT-4: llvm.store %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<1>
// CHECK-NEXT: gpu.return
// PTX-LABEL: .visible .entry softmax_kernel0(
// PTX-NOT: cp.async
// PTX-COUNT-4: ld.global.v4.b32
// PTX-COUNT-32: ex2.approx.f32
// PTX-COUNT-5: shfl.sync.bfly.b32
// PTX: bar.sync
// PTX-NOT: bar.sync
// PTX: rcp.approx.f32
// PTX-NOT: {{rcp|div}}.approx.f32
// PTX-COUNT-4: st.global.v4.b32
// PTX: ret;
// Off, the exponentials go through shared memory, op by op.
// OFF-LABEL: gpu.func @softmax_kernel0
// OFF: memref.view %{{.*}} to memref<4096xf16, #gpu.address_space<workgroup>>
func.func @softmax(%x: tensor<1x4096xf16>) -> tensor<1x4096xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<1x4096xf16>) -> tensor<1x4096xf16>
      grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    %xt = input_loader %X imap <> : tensor<1x4096xf16> -> !mirage_block.stensor<1x4096xf16>
    %e = exp %xt : !mirage_block.stensor<1x4096xf16>
    %r = reduction %e dim 1 : !mirage_block.stensor<1x4096xf16> -> !mirage_block.stensor<1x1xf16>
    %d = div %e, %r : !mirage_block.stensor<1x4096xf16>, !mirage_block.stensor<1x1xf16> -> !mirage_block.stensor<1x4096xf16>
    %s = output_saver %d omap <> : !mirage_block.stensor<1x4096xf16> -> tensor<1x4096xf16>
    yield %s : tensor<1x4096xf16>
  }
  return %o : tensor<1x4096xf16>
}

// -----

// nTrans's block (one 4096-element row per block, 512 threads, one run of 8
// halves each): two rms_norms and a thread graph between them. All three
// loads are issued first, before any sum, so they are in flight at once;
// each rms_norm adds its squares with shuffles and one f32 per warp after
// a barrier, and the thread graph runs on the registers.
// SCHED-LABEL: kernel ntrans#0 on sm_90a: threads 512
// SCHED:         row program width 8 lanes 512 runs 1
// CHECK-LABEL: gpu.func @ntrans_kernel0
// CHECK-NOT: gpu.barrier
// CHECK-COUNT-3: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<8xf16>
// CHECK-NOT: gpu.barrier
// CHECK: gpu.shuffle xor
// CHECK: gpu.barrier
// CHECK: math.sqrt
// CHECK-NOT: llvm.load
// CHECK: gpu.shuffle xor
// CHECK: gpu.barrier
// CHECK: math.sqrt
// CHECK: llvm.store %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<1>
// CHECK-NEXT: gpu.return
// PTX-LABEL: .visible .entry ntrans_kernel0(
// PTX-NOT: bar.sync
// PTX-COUNT-3: ld.global.v4.b32
// PTX-NOT: ld.global
// PTX: st.global.v4.b32
// PTX: ret;
// Off, an rms_norm is its own op (registerRows) and the thread graph reads
// its shared tile, so the second and third loads wait for the first norm.
// OFF-LABEL: gpu.func @ntrans_kernel0
// OFF: gpu.barrier
// OFF: llvm.load
func.func @ntrans(%h: tensor<8x4096xf16>, %x: tensor<8x4096xf16>, %a: tensor<8x4096xf16>) -> tensor<8x4096xf16> {
  %o = mirage_kernel.graph_def(%H = %h : tensor<8x4096xf16>, %X = %x : tensor<8x4096xf16>, %A = %a : tensor<8x4096xf16>) -> tensor<8x4096xf16>
      grid [8, 1, 1] block [512, 1, 1] forloop 1 {
    %ht = input_loader %H imap <x = 0> : tensor<8x4096xf16> -> !mirage_block.stensor<1x4096xf16>
    %xt = input_loader %X imap <x = 0> : tensor<8x4096xf16> -> !mirage_block.stensor<1x4096xf16>
    %at = input_loader %A imap <x = 0> : tensor<8x4096xf16> -> !mirage_block.stensor<1x4096xf16>
    %hn = rms_norm %ht size 4096 : !mirage_block.stensor<1x4096xf16>
    %t = thread_graph %xt, %hn, %at : !mirage_block.stensor<1x4096xf16>, !mirage_block.stensor<1x4096xf16>, !mirage_block.stensor<1x4096xf16> -> !mirage_block.stensor<1x4096xf16> {
    ^bb0(%p: f16, %q: f16, %r: f16):
      %u = add %p, %q : f16
      %v = mul %r, %u : f16
      %w = add %p, %v : f16
      yield %w : f16
    }
    %n = rms_norm %t size 4096 : !mirage_block.stensor<1x4096xf16>
    %s = output_saver %n omap <x = 0> : !mirage_block.stensor<1x4096xf16> -> tensor<8x4096xf16>
    yield %s : tensor<8x4096xf16>
  }
  return %o : tensor<8x4096xf16>
}

// -----

// Four rows of 1024 per block, 128 threads: a warp per row, so its sums
// need no shared memory and the kernel no barrier. The sum's per-row value
// is scaled (mul_scalar on one value per thread) and subtracted from the
// row, and both the row and its scaled sum are saved: the sum by the first
// thread of each row.
// SCHED-LABEL: kernel centre#0 on sm_90a: threads 128, shared 0 bytes
// SCHED:         row program width 8 lanes 32 runs 4
// SCHED-NOT:     buffer
// CHECK-LABEL: gpu.func @centre_kernel0
// CHECK-NOT: gpu.barrier
// CHECK-NOT: memref.view
// CHECK-COUNT-4: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<8xf16>
// CHECK: gpu.shuffle xor %{{.*}}, %c16_i32
// CHECK: arith.mulf %{{.*}}, %cst
// CHECK-COUNT-32: arith.subf
// CHECK-COUNT-4: llvm.store %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<1>
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %{{.*}}, %c0
// CHECK: scf.if %[[FIRST]]
// CHECK: memref.store
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
// PTX-LABEL: .visible .entry centre_kernel0(
// PTX-NOT: bar.sync
// PTX: ret;
func.func @centre(%x: tensor<8x1024xf16>) -> (tensor<8x1024xf16>, tensor<8x1xf16>) {
  %o:2 = mirage_kernel.graph_def(%X = %x : tensor<8x1024xf16>) -> (tensor<8x1024xf16>, tensor<8x1xf16>)
      grid [2, 1, 1] block [128, 1, 1] forloop 1 {
    %xt = input_loader %X imap <x = 0> : tensor<8x1024xf16> -> !mirage_block.stensor<4x1024xf16>
    %r = reduction %xt dim 1 : !mirage_block.stensor<4x1024xf16> -> !mirage_block.stensor<4x1xf16>
    %m = mul_scalar %r by 9.765625e-04 : !mirage_block.stensor<4x1xf16>
    %c = sub %xt, %m : !mirage_block.stensor<4x1024xf16>, !mirage_block.stensor<4x1xf16> -> !mirage_block.stensor<4x1024xf16>
    %s = output_saver %c omap <x = 0> : !mirage_block.stensor<4x1024xf16> -> tensor<8x1024xf16>
    %t = output_saver %m omap <x = 0> : !mirage_block.stensor<4x1xf16> -> tensor<8x1xf16>
    yield %s, %t : tensor<8x1024xf16>, tensor<8x1xf16>
  }
  return %o#0, %o#1 : tensor<8x1024xf16>, tensor<8x1xf16>
}

// -----

// Not row programs, lowered op by op: Qwen2.5-7B's 3584-element rows are
// 448 runs of 8, which 128 threads do not share evenly ...
// SCHED-LABEL: kernel uneven#0 on sm_90a
// SCHED-NOT:     row program
// SCHED-LABEL: kernel wide#0 on sm_90a
// SCHED-NOT:     row program
// SCHED-LABEL: kernel looped#0 on sm_90a
// SCHED-NOT:     row program
func.func @uneven(%x: tensor<1x3584xf16>) -> tensor<1x3584xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<1x3584xf16>) -> tensor<1x3584xf16>
      grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    %xt = input_loader %X imap <> : tensor<1x3584xf16> -> !mirage_block.stensor<1x3584xf16>
    %e = exp %xt : !mirage_block.stensor<1x3584xf16>
    %r = reduction %e dim 1 : !mirage_block.stensor<1x3584xf16> -> !mirage_block.stensor<1x1xf16>
    %d = div %e, %r : !mirage_block.stensor<1x3584xf16>, !mirage_block.stensor<1x1xf16> -> !mirage_block.stensor<1x3584xf16>
    %s = output_saver %d omap <> : !mirage_block.stensor<1x3584xf16> -> tensor<1x3584xf16>
    yield %s : tensor<1x3584xf16>
  }
  return %o : tensor<1x3584xf16>
}

// ... a softmax of 16384-element rows over 128 threads would hold its input
// and its exponentials, 128 registers each, more than kMaxRowProgramRegisters
// ...
func.func @wide(%x: tensor<1x16384xf16>) -> tensor<1x16384xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<1x16384xf16>) -> tensor<1x16384xf16>
      grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    %xt = input_loader %X imap <> : tensor<1x16384xf16> -> !mirage_block.stensor<1x16384xf16>
    %e = exp %xt : !mirage_block.stensor<1x16384xf16>
    %r = reduction %e dim 1 : !mirage_block.stensor<1x16384xf16> -> !mirage_block.stensor<1x1xf16>
    %d = div %e, %r : !mirage_block.stensor<1x16384xf16>, !mirage_block.stensor<1x1xf16> -> !mirage_block.stensor<1x16384xf16>
    %s = output_saver %d omap <> : !mirage_block.stensor<1x16384xf16> -> tensor<1x16384xf16>
    yield %s : tensor<1x16384xf16>
  }
  return %o : tensor<1x16384xf16>
}

// ... and a body with a for-loop accumulates across iterations.
func.func @looped(%x: tensor<1x4096xf16>) -> tensor<1x1xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<1x4096xf16>) -> tensor<1x1xf16>
      grid [1, 1, 1] block [128, 1, 1] forloop 2 {
    %xt = input_loader %X imap <> fmap 1 : tensor<1x4096xf16> -> !mirage_block.stensor<1x2048xf16>
    %r = reduction %xt dim 1 : !mirage_block.stensor<1x2048xf16> -> !mirage_block.stensor<1x1xf16>
    %a = forloop_accum %r sum : !mirage_block.stensor<1x1xf16> -> !mirage_block.stensor<1x1xf16>
    %s = output_saver %a omap <> : !mirage_block.stensor<1x1xf16> -> tensor<1x1xf16>
    yield %s : tensor<1x1xf16>
  }
  return %o : tensor<1x1xf16>
}

// -----

// FlashDecoding's combining kernel, a row program with a for-loop: the 16
// iterations unrolled, each thread's part element, the part's sum and
// maximum read straight from global memory (one exp per part), the sums
// in registers: no barrier at all, one reciprocal, one store per thread.
// SCHED-LABEL: kernel rescaled#0 on sm_90a: threads 128, shared 0 bytes
// SCHED:         row program width 1 lanes 128 runs 1
// CHECK-LABEL: gpu.func @rescaled_kernel0
// CHECK-NOT: gpu.barrier
// CHECK-COUNT-16: math.exp
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
// PTX-LABEL: .visible .entry rescaled_kernel0(
// PTX-NOT: bar.sync
// PTX-COUNT-16: ex2.approx.f32
// PTX-NOT: bar.sync
// PTX: rcp.approx.f32
// PTX-NOT: bar.sync
// PTX: st.global.b16
// PTX: ret;
// Off, each iteration passes through shared memory with barriers.
// OFF-LABEL: gpu.func @rescaled_kernel0
// OFF: gpu.barrier
func.func @rescaled(%p: tensor<8x4x2048xf16>, %l: tensor<8x4x16xf16>, %m: tensor<8x4x16xf16>) -> tensor<8x4x128xf16> {
  %o = mirage_kernel.graph_def(%P = %p : tensor<8x4x2048xf16>, %L = %l : tensor<8x4x16xf16>, %M = %m : tensor<8x4x16xf16>) -> (tensor<8x4x128xf16>)
      grid [8, 4, 1] block [128, 1, 1] forloop 16 {
    %pt = input_loader %P imap <x = 0, y = 1> fmap 2 : tensor<8x4x2048xf16> -> !mirage_block.stensor<1x1x128xf16>
    %lt = input_loader %L imap <x = 0, y = 1> fmap 2 : tensor<8x4x16xf16> -> !mirage_block.stensor<1x1x1xf16>
    %all = input_loader %M imap <x = 0, y = 1> : tensor<8x4x16xf16> -> !mirage_block.stensor<1x1x16xf16>
    %mt = input_loader %M imap <x = 0, y = 1> fmap 2 : tensor<8x4x16xf16> -> !mirage_block.stensor<1x1x1xf16>
    %max = reduction_max %all dim 2 : !mirage_block.stensor<1x1x16xf16> -> !mirage_block.stensor<1x1x1xf16>
    %w = thread_graph %mt, %max : !mirage_block.stensor<1x1x1xf16>, !mirage_block.stensor<1x1x1xf16> -> !mirage_block.stensor<1x1x1xf16> {
    ^bb0(%a: f16, %b: f16):
      %d = sub %a, %b : f16
      %e = exp %d : f16
      yield %e : f16
    }
    %pw = mul %pt, %w : !mirage_block.stensor<1x1x128xf16>, !mirage_block.stensor<1x1x1xf16> -> !mirage_block.stensor<1x1x128xf16>
    %num = forloop_accum %pw sum : !mirage_block.stensor<1x1x128xf16> -> !mirage_block.stensor<1x1x128xf16>
    %lw = mul %lt, %w : !mirage_block.stensor<1x1x1xf16>, !mirage_block.stensor<1x1x1xf16> -> !mirage_block.stensor<1x1x1xf16>
    %den = forloop_accum %lw sum : !mirage_block.stensor<1x1x1xf16> -> !mirage_block.stensor<1x1x1xf16>
    %y = div %num, %den : !mirage_block.stensor<1x1x128xf16>, !mirage_block.stensor<1x1x1xf16> -> !mirage_block.stensor<1x1x128xf16>
    %s = output_saver %y omap <x = 0, y = 1> : !mirage_block.stensor<1x1x128xf16> -> tensor<8x4x128xf16>
    yield %s : tensor<8x4x128xf16>
  }
  return %o : tensor<8x4x128xf16>
}

// -----

// The same combining kernel in a block of 256 threads, twice the row's 128
// elements: with no sum along the rows, the first 128 threads hold one
// element each and the others stay idle (no barrier for them to miss).
// SCHED-LABEL: kernel rescaled_wide_block#0 on sm_90a: threads 256, shared 0 bytes
// SCHED:         row program width 1 lanes 128 runs 1
// CHECK-LABEL: gpu.func @rescaled_wide_block_kernel0
// CHECK: %[[ACTIVE:.*]] = arith.cmpi ult, %{{.*}}, %c128
// CHECK: scf.if %[[ACTIVE]]
// CHECK-NOT: gpu.barrier
// CHECK-COUNT-16: math.exp
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
// PTX-LABEL: .visible .entry rescaled_wide_block_kernel0(
// PTX-NOT: bar.sync
// PTX: st.global.b16
// PTX: ret;
func.func @rescaled_wide_block(%p: tensor<8x4x2048xf16>, %l: tensor<8x4x16xf16>, %m: tensor<8x4x16xf16>) -> tensor<8x4x128xf16> {
  %o = mirage_kernel.graph_def(%P = %p : tensor<8x4x2048xf16>, %L = %l : tensor<8x4x16xf16>, %M = %m : tensor<8x4x16xf16>) -> (tensor<8x4x128xf16>)
      grid [8, 4, 1] block [256, 1, 1] forloop 16 {
    %pt = input_loader %P imap <x = 0, y = 1> fmap 2 : tensor<8x4x2048xf16> -> !mirage_block.stensor<1x1x128xf16>
    %lt = input_loader %L imap <x = 0, y = 1> fmap 2 : tensor<8x4x16xf16> -> !mirage_block.stensor<1x1x1xf16>
    %all = input_loader %M imap <x = 0, y = 1> : tensor<8x4x16xf16> -> !mirage_block.stensor<1x1x16xf16>
    %mt = input_loader %M imap <x = 0, y = 1> fmap 2 : tensor<8x4x16xf16> -> !mirage_block.stensor<1x1x1xf16>
    %max = reduction_max %all dim 2 : !mirage_block.stensor<1x1x16xf16> -> !mirage_block.stensor<1x1x1xf16>
    %w = thread_graph %mt, %max : !mirage_block.stensor<1x1x1xf16>, !mirage_block.stensor<1x1x1xf16> -> !mirage_block.stensor<1x1x1xf16> {
    ^bb0(%a: f16, %b: f16):
      %d = sub %a, %b : f16
      %e = exp %d : f16
      yield %e : f16
    }
    %pw = mul %pt, %w : !mirage_block.stensor<1x1x128xf16>, !mirage_block.stensor<1x1x1xf16> -> !mirage_block.stensor<1x1x128xf16>
    %num = forloop_accum %pw sum : !mirage_block.stensor<1x1x128xf16> -> !mirage_block.stensor<1x1x128xf16>
    %lw = mul %lt, %w : !mirage_block.stensor<1x1x1xf16>, !mirage_block.stensor<1x1x1xf16> -> !mirage_block.stensor<1x1x1xf16>
    %den = forloop_accum %lw sum : !mirage_block.stensor<1x1x1xf16> -> !mirage_block.stensor<1x1x1xf16>
    %y = div %num, %den : !mirage_block.stensor<1x1x128xf16>, !mirage_block.stensor<1x1x1xf16> -> !mirage_block.stensor<1x1x128xf16>
    %s = output_saver %y omap <x = 0, y = 1> : !mirage_block.stensor<1x1x128xf16> -> tensor<8x4x128xf16>
    yield %s : tensor<8x4x128xf16>
  }
  return %o : tensor<8x4x128xf16>
}
