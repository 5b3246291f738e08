// RUN: mirage-opt %s --mirage-estimate-cost -o /dev/null 2>&1 | FileCheck %s

// Loads overlap computation only across a for-loop's iterations: a block
// without a for-loop loads its tiles, then computes. Both kernels read the
// same 4,329,600 bytes (1.47 µs at 2.95 TB/s) on 132 blocks.
// Sums are split over the threads as the code generator splits them
// (getSumSlices). The loop-free block: its 16 sums of 1,024 terms, in 16
// slices of 64, two (slice, sum) pairs per thread and 4 pairwise steps
// (132 terms, 2.64 µs at 20 ns a term), follow its loads: 1.47 + 2.64 +
// 4.35 µs for the launch.
// CHECK: remark: @loop_free: estimated 8.46 us on sm_90a: 4329600 bytes of global memory
// The for-loop block: its sum_last keeps lane partials (the schedule's
// decision: 16 rows of 32 runs of 8 halves, 8 lanes a row), so a lane adds
// 4 runs of 8 terms and a row's 8 lanes are added after the loop (40 terms,
// 0.80 µs; the model counts an accumulator's terms once, as fitted). Its
// stages copy the next tiles during the sums: its 4 stages of 8 KiB per SM
// draw 14.9 GB/s within the 2.2 µs load latency, 1.97 TB/s on 132 SMs, so
// the loads take 2.20 µs, the longer: 2.20 + 4.35 µs for the launch.
// CHECK: remark: @pipelined: estimated 6.55 us on sm_90a: 4329600 bytes of global memory
func.func @loop_free(%x: tensor<2112x1024xf16>) -> tensor<2112x1xf16> {
  %o = mirage_kernel.graph_def(%xg = %x : tensor<2112x1024xf16>) -> tensor<2112x1xf16> grid [132, 1, 1] block [128, 1, 1] forloop 1 {
    %xt = input_loader %xg imap <x = 0> : tensor<2112x1024xf16> -> !mirage_block.stensor<16x1024xf16>
    %r = reduction %xt dim 1 : !mirage_block.stensor<16x1024xf16> -> !mirage_block.stensor<16x1xf16>
    %out = output_saver %r omap <x = 0> : !mirage_block.stensor<16x1xf16> -> tensor<2112x1xf16>
    yield %out : tensor<2112x1xf16>
  }
  return %o : tensor<2112x1xf16>
}
func.func @pipelined(%x: tensor<2112x1024xf16>) -> tensor<2112x1xf16> {
  %o = mirage_kernel.graph_def(%xg = %x : tensor<2112x1024xf16>) -> tensor<2112x1xf16> grid [132, 1, 1] block [128, 1, 1] forloop 4 {
    %xt = input_loader %xg imap <x = 0> fmap 1 : tensor<2112x1024xf16> -> !mirage_block.stensor<16x256xf16>
    %r = forloop_accum %xt sum_last : !mirage_block.stensor<16x256xf16> -> !mirage_block.stensor<16x1xf16>
    %out = output_saver %r omap <x = 0> : !mirage_block.stensor<16x1xf16> -> tensor<2112x1xf16>
    yield %out : tensor<2112x1xf16>
  }
  return %o : tensor<2112x1xf16>
}

// Loop-invariant tiles are loaded once per block, before the pipeline
// starts or where they are read: no stage overlaps them. Here the same
// for-loop block also reads a loop-invariant 16x1024 tile (4,329,600 bytes
// in all, 2.20 µs at the bandwidth its stages draw) and sums it once (132
// terms); the loop's tiles (2.20 µs) overlap the sums (40 + 132 terms plus
// the add, 3.46 µs): 2.20 + 3.46 + 4.35 µs (until the invariant loads
// counted, the longer of all the traffic and the sums).
// CHECK: remark: @invariant: estimated 10.01 us on sm_90a: 8654976 bytes of global memory
func.func @invariant(%x: tensor<2112x1024xf16>, %y: tensor<2112x1024xf16>) -> tensor<2112x1xf16> {
  %o = mirage_kernel.graph_def(%xg = %x : tensor<2112x1024xf16>, %yg = %y : tensor<2112x1024xf16>) -> tensor<2112x1xf16> grid [132, 1, 1] block [128, 1, 1] forloop 4 {
    %xt = input_loader %xg imap <x = 0> fmap 1 : tensor<2112x1024xf16> -> !mirage_block.stensor<16x256xf16>
    %yt = input_loader %yg imap <x = 0> : tensor<2112x1024xf16> -> !mirage_block.stensor<16x1024xf16>
    %rx = forloop_accum %xt sum_last : !mirage_block.stensor<16x256xf16> -> !mirage_block.stensor<16x1xf16>
    %ry = reduction %yt dim 1 : !mirage_block.stensor<16x1024xf16> -> !mirage_block.stensor<16x1xf16>
    %s = add %rx, %ry : !mirage_block.stensor<16x1xf16>, !mirage_block.stensor<16x1xf16> -> !mirage_block.stensor<16x1xf16>
    %out = output_saver %s omap <x = 0> : !mirage_block.stensor<16x1xf16> -> tensor<2112x1xf16>
    yield %out : tensor<2112x1xf16>
  }
  return %o : tensor<2112x1xf16>
}

// Waves follow the kernel schedule's resident blocks, not the size of the
// tiles: the schedule reads this loop-invariant 128 KiB tile in place and
// takes 1,152 bytes of shared memory, so the 264 blocks are resident at once
// on 132 SMs and the sums count once: 64 sums of 1,024 terms in 4 slices of
// 256, two pairs per thread and 2 pairwise steps (514 terms, 10.28 µs):
// 11.74 µs of traffic + 10.28 + 4.35.
// CHECK: remark: @one_wave: estimated 26.37 us on sm_90a: 34636800 bytes of global memory, 0 multiply-adds, 1 launches, 1152 bytes of shared memory per block
func.func @one_wave(%x: tensor<16896x1024xf16>) -> tensor<16896x1xf16> {
  %o = mirage_kernel.graph_def(%xg = %x : tensor<16896x1024xf16>) -> tensor<16896x1xf16> grid [264, 1, 1] block [128, 1, 1] forloop 1 {
    %xt = input_loader %xg imap <x = 0> : tensor<16896x1024xf16> -> !mirage_block.stensor<64x1024xf16>
    %r = reduction %xt dim 1 : !mirage_block.stensor<64x1024xf16> -> !mirage_block.stensor<64x1xf16>
    %out = output_saver %r omap <x = 0> : !mirage_block.stensor<64x1xf16> -> tensor<16896x1xf16>
    yield %out : tensor<16896x1xf16>
  }
  return %o : tensor<16896x1xf16>
}
