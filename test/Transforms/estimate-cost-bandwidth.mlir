// RUN: mirage-opt %s --mirage-estimate-cost -o /dev/null 2>&1 | FileCheck %s

// The memory bandwidth a kernel draws, measured on the H100 with GEMVs that
// stream a 4096x6144 f16 weight (docs/Benchmarks/CostModel.md).

// Fewer blocks than SMs still draw the whole bandwidth: each SM draws up to
// 45 GB/s, and 96 SMs together more than the 2.95 TB/s there is. The
// weight's tiles are 256x64 (128-byte runs), 3 stages of 33 KiB are in
// flight per SM (45 GB/s within the 2.2 µs load latency), so the 51,929,088
// bytes take 17.60 µs, plus 4.35 µs for the launch.
// CHECK: remark: @runs_of_128_bytes: estimated 21.95 us on sm_90a: 51929088 bytes
func.func @runs_of_128_bytes(%x: tensor<2x4096xf16>, %w: tensor<4096x6144xf16>) -> tensor<2x6144xf16> {
  %o = mirage_kernel.graph_def(%xg = %x : tensor<2x4096xf16>, %wg = %w : tensor<4096x6144xf16>) -> tensor<2x6144xf16> grid [96, 1, 1] block [128, 1, 1] forloop 16 {
    %xt = input_loader %xg imap <> fmap 1 : tensor<2x4096xf16> -> !mirage_block.stensor<2x256xf16>
    %wt = input_loader %wg imap <x = 1> fmap 0 : tensor<4096x6144xf16> -> !mirage_block.stensor<256x64xf16>
    %m = matmul %xt, %wt : !mirage_block.stensor<2x256xf16>, !mirage_block.stensor<256x64xf16> -> !mirage_block.stensor<2x64xf16>
    %a = forloop_accum %m sum : !mirage_block.stensor<2x64xf16> -> !mirage_block.stensor<2x64xf16>
    %out = output_saver %a omap <x = 1> : !mirage_block.stensor<2x64xf16> -> tensor<2x6144xf16>
    yield %out : tensor<2x6144xf16>
  }
  return %o : tensor<2x6144xf16>
}

// Runs shorter than a 128-byte cache line move at 82% of the bandwidth:
// 48-column tiles (96-byte runs) on 128 blocks read the weight's 50,331,648
// bytes as 61,380,059, 21.53 µs in all, plus the launch.
// CHECK: remark: @runs_of_96_bytes: estimated 25.88 us on sm_90a: 52453376 bytes
func.func @runs_of_96_bytes(%x: tensor<2x4096xf16>, %w: tensor<4096x6144xf16>) -> tensor<2x6144xf16> {
  %o = mirage_kernel.graph_def(%xg = %x : tensor<2x4096xf16>, %wg = %w : tensor<4096x6144xf16>) -> tensor<2x6144xf16> grid [128, 1, 1] block [128, 1, 1] forloop 16 {
    %xt = input_loader %xg imap <> fmap 1 : tensor<2x4096xf16> -> !mirage_block.stensor<2x256xf16>
    %wt = input_loader %wg imap <x = 1> fmap 0 : tensor<4096x6144xf16> -> !mirage_block.stensor<256x48xf16>
    %m = matmul %xt, %wt : !mirage_block.stensor<2x256xf16>, !mirage_block.stensor<256x48xf16> -> !mirage_block.stensor<2x48xf16>
    %a = forloop_accum %m sum : !mirage_block.stensor<2x48xf16> -> !mirage_block.stensor<2x48xf16>
    %out = output_saver %a omap <x = 1> : !mirage_block.stensor<2x48xf16> -> tensor<2x6144xf16>
    yield %out : tensor<2x6144xf16>
  }
  return %o : tensor<2x6144xf16>
}

// An SM draws at most its stages in flight per load latency: 4 stages of
// 8,448 bytes per SM over 2.2 µs are 15.4 GB/s, 1.47 TB/s on 96 SMs, so the
// same bytes take 35.22 µs, plus the launch.
// CHECK: remark: @small_stages: estimated 39.57 us on sm_90a: 51929088 bytes
func.func @small_stages(%x: tensor<2x4096xf16>, %w: tensor<4096x6144xf16>) -> tensor<2x6144xf16> {
  %o = mirage_kernel.graph_def(%xg = %x : tensor<2x4096xf16>, %wg = %w : tensor<4096x6144xf16>) -> tensor<2x6144xf16> grid [96, 1, 1] block [128, 1, 1] forloop 64 {
    %xt = input_loader %xg imap <> fmap 1 : tensor<2x4096xf16> -> !mirage_block.stensor<2x64xf16>
    %wt = input_loader %wg imap <x = 1> fmap 0 : tensor<4096x6144xf16> -> !mirage_block.stensor<64x64xf16>
    %m = matmul %xt, %wt : !mirage_block.stensor<2x64xf16>, !mirage_block.stensor<64x64xf16> -> !mirage_block.stensor<2x64xf16>
    %a = forloop_accum %m sum : !mirage_block.stensor<2x64xf16> -> !mirage_block.stensor<2x64xf16>
    %out = output_saver %a omap <x = 1> : !mirage_block.stensor<2x64xf16> -> tensor<2x6144xf16>
    yield %out : tensor<2x6144xf16>
  }
  return %o : tensor<2x6144xf16>
}
