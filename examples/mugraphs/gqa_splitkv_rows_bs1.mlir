// µGraph: split-KV attention over 32-row tiles of Q for the gqa_bs1
// benchmark (Q (2,256,64), K (2,64,4096), V (2,4096,64), f16):
//   E = exp(matmul(Q, K));  O = matmul(div(E, reduction(E, dim 2)), V)
//
// Kernel 1 (grid [2, 32, 8], forloop 4): block (x, y, z) takes head x, query
// rows [32z, 32z+32) and keys [128y, 128y+128), 32 per loop iteration, and
// accumulates its partial numerator (1x32x64) and denominator (1x32x1).
// 512 small blocks keep every SM busy where gqa_splitkv_bs1.mlir's 32 blocks
// of all 256 rows cannot. Kernel 2 (grid [2, 32, 1]) adds the 32 partials
// with the strided reduction rule and divides.

// CHECK-LABEL: func.func @gqa_splitkv_rows_bs1
// CHECK-SAME: (%{{.*}}: tensor<2x256x64xf16>, %{{.*}}: tensor<2x64x4096xf16>, %{{.*}}: tensor<2x4096x64xf16>) -> tensor<2x256x64xf16>
// CHECK: mirage_kernel.graph_def
// CHECK-SAME: -> (tensor<2x256x2048xf16>, tensor<2x256x32xf16>) grid [2, 32, 8] block [128, 1, 1] forloop 4 {
// CHECK: input_loader %{{.*}} imap <x = 0, z = 1> : tensor<2x256x64xf16> -> !mirage_block.stensor<1x32x64xf16>
// CHECK: input_loader %{{.*}} imap <x = 0, y = 2> fmap 2 : tensor<2x64x4096xf16> -> !mirage_block.stensor<1x64x32xf16>
// CHECK: input_loader %{{.*}} imap <x = 0, y = 1> fmap 1 : tensor<2x4096x64xf16> -> !mirage_block.stensor<1x32x64xf16>
// CHECK: matmul %{{.*}}, %{{.*}} : !mirage_block.stensor<1x32x64xf16>, !mirage_block.stensor<1x64x32xf16> -> !mirage_block.stensor<1x32x32xf16>
// CHECK: exp %{{.*}} : !mirage_block.stensor<1x32x32xf16>
// CHECK: matmul %{{.*}}, %{{.*}} : !mirage_block.stensor<1x32x32xf16>, !mirage_block.stensor<1x32x64xf16> -> !mirage_block.stensor<1x32x64xf16>
// CHECK: forloop_accum %{{.*}} sum : !mirage_block.stensor<1x32x64xf16> -> !mirage_block.stensor<1x32x64xf16>
// CHECK: forloop_accum %{{.*}} sum_last : !mirage_block.stensor<1x32x32xf16> -> !mirage_block.stensor<1x32x1xf16>
// CHECK: output_saver %{{.*}} omap <x = 0, y = 2, z = 1> : !mirage_block.stensor<1x32x64xf16> -> tensor<2x256x2048xf16>
// CHECK: output_saver %{{.*}} omap <x = 0, y = 2, z = 1> : !mirage_block.stensor<1x32x1xf16> -> tensor<2x256x32xf16>
// CHECK: yield {{.*}} : tensor<2x256x2048xf16>, tensor<2x256x32xf16>
// CHECK: mirage_kernel.graph_def
// CHECK-SAME: -> tensor<2x256x64xf16> grid [2, 32, 1] block [128, 1, 1] forloop 1 {
// CHECK: input_loader %{{.*}} imap <x = 0, y = 1> : tensor<2x256x2048xf16> -> !mirage_block.stensor<1x8x2048xf16>
// CHECK: input_loader %{{.*}} imap <x = 0, y = 1> : tensor<2x256x32xf16> -> !mirage_block.stensor<1x8x32xf16>
// CHECK: reduction %{{.*}} dim 2 size 64 : !mirage_block.stensor<1x8x2048xf16> -> !mirage_block.stensor<1x8x64xf16>
// CHECK: reduction %{{.*}} dim 2 : !mirage_block.stensor<1x8x32xf16> -> !mirage_block.stensor<1x8x1xf16>
// CHECK: div %{{.*}}, %{{.*}} : !mirage_block.stensor<1x8x64xf16>, !mirage_block.stensor<1x8x1xf16> -> !mirage_block.stensor<1x8x64xf16>
// CHECK: output_saver %{{.*}} omap <x = 0, y = 1> : !mirage_block.stensor<1x8x64xf16> -> tensor<2x256x64xf16>
// CHECK: yield {{.*}} : tensor<2x256x64xf16>
// CHECK: return {{.*}} : tensor<2x256x64xf16>
func.func @gqa_splitkv_rows_bs1(%Q: tensor<2x256x64xf16>, %K: tensor<2x64x4096xf16>, %V: tensor<2x4096x64xf16>) -> tensor<2x256x64xf16> {
  %parts, %dens = mirage_kernel.graph_def(%Qg = %Q : tensor<2x256x64xf16>, %Kg = %K : tensor<2x64x4096xf16>, %Vg = %V : tensor<2x4096x64xf16>)
      -> (tensor<2x256x2048xf16>, tensor<2x256x32xf16>) grid [2, 32, 8] block [128, 1, 1] forloop 4 {
    %qt = input_loader %Qg imap <x = 0, z = 1> : tensor<2x256x64xf16> -> !mirage_block.stensor<1x32x64xf16>
    %kt = input_loader %Kg imap <x = 0, y = 2> fmap 2 : tensor<2x64x4096xf16> -> !mirage_block.stensor<1x64x32xf16>
    %vt = input_loader %Vg imap <x = 0, y = 1> fmap 1 : tensor<2x4096x64xf16> -> !mirage_block.stensor<1x32x64xf16>
    %s = matmul %qt, %kt : !mirage_block.stensor<1x32x64xf16>, !mirage_block.stensor<1x64x32xf16> -> !mirage_block.stensor<1x32x32xf16>
    %e = exp %s : !mirage_block.stensor<1x32x32xf16>
    %ev = matmul %e, %vt : !mirage_block.stensor<1x32x32xf16>, !mirage_block.stensor<1x32x64xf16> -> !mirage_block.stensor<1x32x64xf16>
    %acc = forloop_accum %ev sum : !mirage_block.stensor<1x32x64xf16> -> !mirage_block.stensor<1x32x64xf16>
    %den = forloop_accum %e sum_last : !mirage_block.stensor<1x32x32xf16> -> !mirage_block.stensor<1x32x1xf16>
    %oa = output_saver %acc omap <x = 0, y = 2, z = 1> : !mirage_block.stensor<1x32x64xf16> -> tensor<2x256x2048xf16>
    %od = output_saver %den omap <x = 0, y = 2, z = 1> : !mirage_block.stensor<1x32x1xf16> -> tensor<2x256x32xf16>
    yield %oa, %od : tensor<2x256x2048xf16>, tensor<2x256x32xf16>
  }
  %O = mirage_kernel.graph_def(%Pg = %parts : tensor<2x256x2048xf16>, %Dg = %dens : tensor<2x256x32xf16>)
      -> tensor<2x256x64xf16> grid [2, 32, 1] block [128, 1, 1] forloop 1 {
    %pt = input_loader %Pg imap <x = 0, y = 1> : tensor<2x256x2048xf16> -> !mirage_block.stensor<1x8x2048xf16>
    %dt = input_loader %Dg imap <x = 0, y = 1> : tensor<2x256x32xf16> -> !mirage_block.stensor<1x8x32xf16>
    %num = reduction %pt dim 2 size 64 : !mirage_block.stensor<1x8x2048xf16> -> !mirage_block.stensor<1x8x64xf16>
    %sum = reduction %dt dim 2 : !mirage_block.stensor<1x8x32xf16> -> !mirage_block.stensor<1x8x1xf16>
    %y = div %num, %sum : !mirage_block.stensor<1x8x64xf16>, !mirage_block.stensor<1x8x1xf16> -> !mirage_block.stensor<1x8x64xf16>
    %ot = output_saver %y omap <x = 0, y = 1> : !mirage_block.stensor<1x8x64xf16> -> tensor<2x256x64xf16>
    yield %ot : tensor<2x256x64xf16>
  }
  return %O : tensor<2x256x64xf16>
}
