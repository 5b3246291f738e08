// RUN: mirage-opt %s --mirage-test-kernel-schedule=chip=sm_80 -o /dev/null | FileCheck %s --check-prefix=SM80
// RUN: mirage-opt %s --mirage-test-kernel-schedule=chip=sm_90a -o /dev/null | FileCheck %s --check-prefix=SM90
// RUN: mirage-opt %s --mirage-test-kernel-schedule="chip=sm_80 tensor-cores=false" -o /dev/null | FileCheck %s --check-prefix=SIMT
// RUN: not mirage-opt %s --mirage-test-kernel-schedule="chip=sm_80 max-shared-memory=1024" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SMALL

// The kernel schedule: every decision behind a kernel, before any IR.

// 1024 blocks, 8 or more per SM, a 16 KiB stage per iteration and a 32 KiB
// f32 accumulator. sm_80 (164 KiB per SM, 1 KiB reserved per block): 4
// stages (96 KiB) fit 1 block, 3 stages (80 KiB) 2, so 3 stages. sm_90a
// (228 KiB): 4 and 3 stages fit 2 blocks, 2 stages 3, so 2 stages, copied by
// TMA (one 8-byte mbarrier per stage after the stages).
// SM80-LABEL: kernel many#0 on sm_80: threads 128, shared 81920 bytes, registers ~32, resident blocks 2
// SM80-NEXT:    choices: stages<=3 staging<=131072 vector-sums=1 tensor-cores=1 wgmma=0 tma=0 preload=1
// SM80-NEXT:    stages 3
// SM80-NEXT:    staged #0 input_loader swizzle 0 block 0
// SM80-NEXT:    buffer [0, 49152) align 16
// SM80-NEXT:    buffer [49152, 81920) align 16
// SM90-LABEL: kernel many#0 on sm_90a: threads 128, shared 65552 bytes, registers ~32, resident blocks 3
// SM90:         stages 2 (tma)
// SM90-NEXT:    staged #0 input_loader swizzle 0 block 0
// SM90-NEXT:    buffer [0, 32768) align 128
// SM90-NEXT:    buffer [32768, 32784) align 16
// SM90-NEXT:    buffer [32784, 65552) align 16
func.func @many(%y: tensor<131072x512xf16>) -> tensor<131072x64xf16> {
  %o = mirage_kernel.graph_def(%Y = %y : tensor<131072x512xf16>) -> (tensor<131072x64xf16>)
      grid [1024, 1, 1] block [128, 1, 1] forloop 8 {
    %yt = input_loader %Y imap <x = 0> fmap 1 : tensor<131072x512xf16> -> !mirage_block.stensor<128x64xf16>
    %acc = forloop_accum %yt sum : !mirage_block.stensor<128x64xf16> -> !mirage_block.stensor<128x64xf16>
    %s = output_saver %acc omap <x = 0> : !mirage_block.stensor<128x64xf16> -> tensor<131072x64xf16>
    yield %s : tensor<131072x64xf16>
  }
  return %o : tensor<131072x64xf16>
}

// The same kernel marked async_copies: cp.async copies its stages on
// sm_90a too (no mbarriers), so the schedule is sm_80's but for the
// larger shared memory's stage count.
// SM90-LABEL: kernel many_async#0 on sm_90a: threads 128, shared 65536 bytes, registers ~32, resident blocks 3
// SM90-NEXT:    choices: stages<=2 staging<=131072 vector-sums=1 tensor-cores=1 wgmma=0 tma=0 preload=1
// SM90-NEXT:    stages 2{{$}}
// SM90-NEXT:    staged #0 input_loader swizzle 0 block 0
// SM90-NEXT:    buffer [0, 32768) align 16
// SM90-NEXT:    buffer [32768, 65536) align 16
func.func @many_async(%y: tensor<131072x512xf16>) -> tensor<131072x64xf16> {
  %o = mirage_kernel.graph_def(%Y = %y : tensor<131072x512xf16>) -> (tensor<131072x64xf16>)
      grid [1024, 1, 1] block [128, 1, 1] forloop 8 async_copies {
    %yt = input_loader %Y imap <x = 0> fmap 1 : tensor<131072x512xf16> -> !mirage_block.stensor<128x64xf16>
    %acc = forloop_accum %yt sum : !mirage_block.stensor<128x64xf16> -> !mirage_block.stensor<128x64xf16>
    %s = output_saver %acc omap <x = 0> : !mirage_block.stensor<128x64xf16> -> tensor<131072x64xf16>
    yield %s : tensor<131072x64xf16>
  }
  return %o : tensor<131072x64xf16>
}

// Attention: E = exp(Q x K) stays in registers for E x V and E's row sums
// (a register chain of 32 + 2 registers); Q is preloaded (read by every
// iteration), K and V staged, swizzled for the tensor cores' fragments. After
// the loop, the chain's results get their tiles. Without tensor cores every
// matmul runs on the SIMT path, the exp is a tile of its own, and the sums
// are shared-memory accumulators.
// SM80-LABEL: kernel attention#0 on sm_80: threads 128, shared {{[0-9]+}} bytes, registers ~66, resident blocks
// SM80:         stages 4
// SM80-NEXT:    staged #1 input_loader swizzle 64 block 0
// SM80-NEXT:    staged #2 input_loader swizzle 128 block 0
// SM80-NEXT:    preloaded #0 input_loader
// SM80-NEXT:    register chain #3 matmul -> #5 matmul row sums 1 registers [0, 34)
// SM80-NOT:     matmul {{.*}} simt
// SM90-LABEL: kernel attention#0 on sm_90a
// SM90:         stages 4 (tma)
// SM90:         register chain #3 matmul -> #5 matmul row sums 1 registers [0, 34)
// SIMT-LABEL: kernel attention#0 on sm_80
// SIMT:         matmul #3 matmul simt
// SIMT-NEXT:    matmul #5 matmul simt
// SIMT-NOT:     register
func.func @attention(%q: tensor<64x64xf16>, %k: tensor<64x128xf16>, %v: tensor<128x64xf16>) -> (tensor<64x64xf16>, tensor<64x1xf16>) {
  %o, %d = mirage_kernel.graph_def(%Q = %q : tensor<64x64xf16>, %K = %k : tensor<64x128xf16>, %V = %v : tensor<128x64xf16>) -> (tensor<64x64xf16>, tensor<64x1xf16>)
      grid [1, 1, 1] block [128, 1, 1] forloop 4 {
    %qt = input_loader %Q imap <> : tensor<64x64xf16> -> !mirage_block.stensor<64x64xf16>
    %kt = input_loader %K imap <> fmap 1 : tensor<64x128xf16> -> !mirage_block.stensor<64x32xf16>
    %vt = input_loader %V imap <> fmap 0 : tensor<128x64xf16> -> !mirage_block.stensor<32x64xf16>
    %s = matmul %qt, %kt : !mirage_block.stensor<64x64xf16>, !mirage_block.stensor<64x32xf16> -> !mirage_block.stensor<64x32xf16>
    %e = exp %s : !mirage_block.stensor<64x32xf16>
    %ev = matmul %e, %vt : !mirage_block.stensor<64x32xf16>, !mirage_block.stensor<32x64xf16> -> !mirage_block.stensor<64x64xf16>
    %acc = forloop_accum %ev sum : !mirage_block.stensor<64x64xf16> -> !mirage_block.stensor<64x64xf16>
    %den = forloop_accum %e sum_last : !mirage_block.stensor<64x32xf16> -> !mirage_block.stensor<64x1xf16>
    %oa = output_saver %acc omap <> : !mirage_block.stensor<64x64xf16> -> tensor<64x64xf16>
    %od = output_saver %den omap <> : !mirage_block.stensor<64x1xf16> -> tensor<64x1xf16>
    yield %oa, %od : tensor<64x64xf16>, tensor<64x1xf16>
  }
  return %o, %d : tensor<64x64xf16>, tensor<64x1xf16>
}

// Too large for the limit on every rung: the lowering's error.
// SMALL: error: 'mirage_kernel.graph_def' op needs {{[0-9]+}} bytes of shared memory per block, more than the 1024 of sm_80
// SMALL: kernel many#0 on sm_80: unschedulable

// An elementwise op whose one use is an output_saver of its element type
// stores its result straight to global memory: the result has no shared
// tile, the saver copies nothing. Its operands, read once, come straight
// from global memory too: no shared memory at all.
// SM80-LABEL: kernel divided#0 on sm_80: threads 128, shared 0 bytes
// SM80:         direct save #2 div -> #3 output_saver
// SM80-NOT:     buffer
// SIMT-LABEL: kernel divided#0 on sm_80: threads 128, shared 0 bytes
// SIMT:         direct save #2 div -> #3 output_saver
func.func @divided(%x: tensor<64x64xf16>, %s: tensor<64x1xf16>) -> tensor<64x64xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<64x64xf16>, %S = %s : tensor<64x1xf16>) -> tensor<64x64xf16>
      grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    %xt = input_loader %X imap <> : tensor<64x64xf16> -> !mirage_block.stensor<64x64xf16>
    %st = input_loader %S imap <> : tensor<64x1xf16> -> !mirage_block.stensor<64x1xf16>
    %d = div %xt, %st : !mirage_block.stensor<64x64xf16>, !mirage_block.stensor<64x1xf16> -> !mirage_block.stensor<64x64xf16>
    %od = output_saver %d omap <> : !mirage_block.stensor<64x64xf16> -> tensor<64x64xf16>
    yield %od : tensor<64x64xf16>
  }
  return %o : tensor<64x64xf16>
}

// A GEMV of 16 rows whose per-iteration tiles take 70 KiB (X: 16x448, W:
// 448x64, bf16): two stages (140 KiB) pass the 128 KiB staging budget but
// fit the block's shared memory on both chips, so the tiles are still staged
// twice; reading W in place ran 4x slower on an H200 (62.7 against 15.9 us
// for Qwen2.5-7B's norm + QKV at 16 tokens, bench/results/e127c03-norm-qkv-
// grids-tune.txt). By cp.async on both chips: W's 448-row box is past the
// TMA unit's 256.
// SM80-LABEL: kernel gemv16#0 on sm_80
// SM80:         stages 2
// SM80-NEXT:    staged #0 input_loader
// SM80-NEXT:    staged #1 input_loader
// SM90-LABEL: kernel gemv16#0 on sm_90a
// SM90:         stages 2{{$}}
func.func @gemv16(%x: tensor<16x3584xbf16>, %w: tensor<3584x4608xbf16>) -> tensor<16x4608xbf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<16x3584xbf16>, %W = %w : tensor<3584x4608xbf16>) -> tensor<16x4608xbf16>
      grid [72, 1, 1] block [128, 1, 1] forloop 8 {
    %xt = input_loader %X imap <> fmap 1 : tensor<16x3584xbf16> -> !mirage_block.stensor<16x448xbf16>
    %wt = input_loader %W imap <x = 1> fmap 0 : tensor<3584x4608xbf16> -> !mirage_block.stensor<448x64xbf16>
    %p = matmul %xt, %wt : !mirage_block.stensor<16x448xbf16>, !mirage_block.stensor<448x64xbf16> -> !mirage_block.stensor<16x64xbf16>
    %acc = forloop_accum %p sum : !mirage_block.stensor<16x64xbf16> -> !mirage_block.stensor<16x64xbf16>
    %s = output_saver %acc omap <x = 1> : !mirage_block.stensor<16x64xbf16> -> tensor<16x4608xbf16>
    yield %s : tensor<16x4608xbf16>
  }
  return %o : tensor<16x4608xbf16>
}
