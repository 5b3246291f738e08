// A split first kernel that also saves, along the rows, a tile that holds
// no rows (the row sums of a V tile of 64 keys, which nothing reads): the
// rows cannot be cut inside its blocks, so the check cuts them to one
// block's tile instead. Until this was caught, the reduced-size check cut
// the saved tensor's rows but not the tile, wrote past the tensor and
// crashed mirage-opt (a candidate of the search for QKNorm).
// RUN: mirage-opt %s --mirage-check-equivalence=reference=qknorm_gqa_bs1 -o /dev/null 2>&1 | FileCheck %s
// CHECK: remark: is equivalent to @qknorm_gqa_bs1: {{.*}}; output dimension 1 checked at 64 of its 256 indices;
func.func @qknorm_gqa_bs1(%Q: tensor<2x256x64xf16>, %K: tensor<2x64x4096xf16>, %V: tensor<2x4096x64xf16>) -> tensor<2x256x64xf16> {
  %Qn = mirage_kernel.rms_norm %Q size 64 : tensor<2x256x64xf16>
  %Vn = mirage_kernel.rms_norm %V size 64 : tensor<2x4096x64xf16>
  %S = mirage_kernel.matmul %Qn, %K : tensor<2x256x64xf16>, tensor<2x64x4096xf16> -> tensor<2x256x4096xf16>
  %E = mirage_kernel.exp %S : tensor<2x256x4096xf16>
  %R = mirage_kernel.reduction %E dim 2 : tensor<2x256x4096xf16> -> tensor<2x256x1xf16>
  %P = mirage_kernel.div %E, %R : tensor<2x256x4096xf16>, tensor<2x256x1xf16> -> tensor<2x256x4096xf16>
  %O = mirage_kernel.matmul %P, %Vn : tensor<2x256x4096xf16>, tensor<2x4096x64xf16> -> tensor<2x256x64xf16>
  return %O : tensor<2x256x64xf16>
}

func.func @unused_row_sums(%q: tensor<2x256x64xf16>, %k: tensor<2x64x4096xf16>, %v: tensor<2x4096x64xf16>) -> tensor<2x256x64xf16> {
  %p:3 = mirage_kernel.graph_def(%Q = %q : tensor<2x256x64xf16>, %K = %k : tensor<2x64x4096xf16>, %V = %v : tensor<2x4096x64xf16>) -> (tensor<2x256x4096xf16>, tensor<2x256x64xf16>, tensor<2x256x64xf16>) grid [2, 64, 4] block [128, 1, 1] forloop 1 {
    %a = input_loader %Q imap <x = 0, z = 1> : tensor<2x256x64xf16> -> !mirage_block.stensor<1x64x64xf16>
    %b = input_loader %K imap <x = 0, y = 2> : tensor<2x64x4096xf16> -> !mirage_block.stensor<1x64x64xf16>
    %c = input_loader %V imap <x = 0, y = 1> : tensor<2x4096x64xf16> -> !mirage_block.stensor<1x64x64xf16>
    %an = rms_norm %a size 64 : !mirage_block.stensor<1x64x64xf16>
    %s = matmul %an, %b : !mirage_block.stensor<1x64x64xf16>, !mirage_block.stensor<1x64x64xf16> -> !mirage_block.stensor<1x64x64xf16>
    %e = exp %s : !mirage_block.stensor<1x64x64xf16>
    %cn = rms_norm %c size 64 : !mirage_block.stensor<1x64x64xf16>
    %n = matmul %e, %cn : !mirage_block.stensor<1x64x64xf16>, !mirage_block.stensor<1x64x64xf16> -> !mirage_block.stensor<1x64x64xf16>
    %d = reduction %e dim 2 : !mirage_block.stensor<1x64x64xf16> -> !mirage_block.stensor<1x64x1xf16>
    %r = forloop_accum %c rms_last : !mirage_block.stensor<1x64x64xf16> -> !mirage_block.stensor<1x64x1xf16>
    %o0 = output_saver %n omap <x = 0, y = 2, z = 1> : !mirage_block.stensor<1x64x64xf16> -> tensor<2x256x4096xf16>
    %o1 = output_saver %d omap <x = 0, y = 2, z = 1> : !mirage_block.stensor<1x64x1xf16> -> tensor<2x256x64xf16>
    %o2 = output_saver %r omap <x = 0, y = 2, z = 1> : !mirage_block.stensor<1x64x1xf16> -> tensor<2x256x64xf16>
    yield %o0, %o1, %o2 : tensor<2x256x4096xf16>, tensor<2x256x64xf16>, tensor<2x256x64xf16>
  }
  %o = mirage_kernel.graph_def(%N = %p#0 : tensor<2x256x4096xf16>, %D = %p#1 : tensor<2x256x64xf16>) -> tensor<2x256x64xf16> grid [2, 256, 1] block [128, 1, 1] forloop 1 {
    %a = input_loader %N imap <x = 0, y = 1> : tensor<2x256x4096xf16> -> !mirage_block.stensor<1x1x4096xf16>
    %b = input_loader %D imap <x = 0, y = 1> : tensor<2x256x64xf16> -> !mirage_block.stensor<1x1x64xf16>
    %ns = reduction %a dim 2 size 64 : !mirage_block.stensor<1x1x4096xf16> -> !mirage_block.stensor<1x1x64xf16>
    %ds = reduction %b dim 2 : !mirage_block.stensor<1x1x64xf16> -> !mirage_block.stensor<1x1x1xf16>
    %r = div %ns, %ds : !mirage_block.stensor<1x1x64xf16>, !mirage_block.stensor<1x1x1xf16> -> !mirage_block.stensor<1x1x64xf16>
    %out = output_saver %r omap <x = 0, y = 1> : !mirage_block.stensor<1x1x64xf16> -> tensor<2x256x64xf16>
    yield %out : tensor<2x256x64xf16>
  }
  return %o : tensor<2x256x64xf16>
}
