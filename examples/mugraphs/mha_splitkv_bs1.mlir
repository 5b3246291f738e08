// µGraph: split-KV attention for the mha_bs1 benchmark (Q (32,16,64),
// K (32,64,4096), V (32,4096,64), f16):
//   E = exp(matmul(Q, K));  O = matmul(div(E, reduction(E, dim 2)), V)
//
// Kernel 1 (grid [32, 16, 1], forloop 4): block (x, y) takes head x and the
// 256 keys [256y, 256y+256), 64 per loop iteration, and accumulates the
// partial numerator Σ exp(S)·V (1x16x64) and denominator Σ exp(S) (1x16x1)
// of its slice; 512 blocks of 53 KiB stream K and V through the pipelined
// stages, every block resident at once on an H100 (the searched µGraph's
// 256 blocks of one 151 KiB load each take two waves and wait on memory).
// Kernel 2 (grid [32, 1, 1]) adds the 16 partials with the strided
// reduction rule (see gqa_splitkv_bs1.mlir) and divides.

// CHECK-LABEL: func.func @mha_splitkv_bs1
// CHECK-SAME: (%{{.*}}: tensor<32x16x64xf16>, %{{.*}}: tensor<32x64x4096xf16>, %{{.*}}: tensor<32x4096x64xf16>) -> tensor<32x16x64xf16>
// CHECK: mirage_kernel.graph_def
// CHECK-SAME: -> (tensor<32x16x1024xf16>, tensor<32x16x16xf16>) grid [32, 16, 1] block [128, 1, 1] forloop 4 {
// CHECK: input_loader %{{.*}} imap <x = 0> : tensor<32x16x64xf16> -> !mirage_block.stensor<1x16x64xf16>
// CHECK: input_loader %{{.*}} imap <x = 0, y = 2> fmap 2 : tensor<32x64x4096xf16> -> !mirage_block.stensor<1x64x64xf16>
// CHECK: input_loader %{{.*}} imap <x = 0, y = 1> fmap 1 : tensor<32x4096x64xf16> -> !mirage_block.stensor<1x64x64xf16>
// CHECK: matmul %{{.*}}, %{{.*}} : !mirage_block.stensor<1x16x64xf16>, !mirage_block.stensor<1x64x64xf16> -> !mirage_block.stensor<1x16x64xf16>
// CHECK: exp %{{.*}} : !mirage_block.stensor<1x16x64xf16>
// CHECK: matmul %{{.*}}, %{{.*}} : !mirage_block.stensor<1x16x64xf16>, !mirage_block.stensor<1x64x64xf16> -> !mirage_block.stensor<1x16x64xf16>
// CHECK: forloop_accum %{{.*}} sum : !mirage_block.stensor<1x16x64xf16> -> !mirage_block.stensor<1x16x64xf16>
// CHECK: forloop_accum %{{.*}} sum_last : !mirage_block.stensor<1x16x64xf16> -> !mirage_block.stensor<1x16x1xf16>
// CHECK: output_saver %{{.*}} omap <x = 0, y = 2> : !mirage_block.stensor<1x16x64xf16> -> tensor<32x16x1024xf16>
// CHECK: output_saver %{{.*}} omap <x = 0, y = 2> : !mirage_block.stensor<1x16x1xf16> -> tensor<32x16x16xf16>
// CHECK: yield {{.*}} : tensor<32x16x1024xf16>, tensor<32x16x16xf16>
// CHECK: mirage_kernel.graph_def
// CHECK-SAME: -> tensor<32x16x64xf16> grid [32, 1, 1] block [128, 1, 1] forloop 1 {
// CHECK: input_loader %{{.*}} imap <x = 0, y = 1> : tensor<32x16x1024xf16> -> !mirage_block.stensor<1x16x1024xf16>
// CHECK: input_loader %{{.*}} imap <x = 0, y = 1> : tensor<32x16x16xf16> -> !mirage_block.stensor<1x16x16xf16>
// CHECK: reduction %{{.*}} dim 2 size 64 : !mirage_block.stensor<1x16x1024xf16> -> !mirage_block.stensor<1x16x64xf16>
// CHECK: reduction %{{.*}} dim 2 : !mirage_block.stensor<1x16x16xf16> -> !mirage_block.stensor<1x16x1xf16>
// CHECK: div %{{.*}}, %{{.*}} : !mirage_block.stensor<1x16x64xf16>, !mirage_block.stensor<1x16x1xf16> -> !mirage_block.stensor<1x16x64xf16>
// CHECK: output_saver %{{.*}} omap <x = 0, y = 1> : !mirage_block.stensor<1x16x64xf16> -> tensor<32x16x64xf16>
// CHECK: yield {{.*}} : tensor<32x16x64xf16>
// CHECK: return {{.*}} : tensor<32x16x64xf16>
func.func @mha_splitkv_bs1(%Q: tensor<32x16x64xf16>, %K: tensor<32x64x4096xf16>, %V: tensor<32x4096x64xf16>) -> tensor<32x16x64xf16> {
  %parts, %dens = mirage_kernel.graph_def(%Qg = %Q : tensor<32x16x64xf16>, %Kg = %K : tensor<32x64x4096xf16>, %Vg = %V : tensor<32x4096x64xf16>)
      -> (tensor<32x16x1024xf16>, tensor<32x16x16xf16>) grid [32, 16, 1] block [128, 1, 1] forloop 4 {
    %qt = input_loader %Qg imap <x = 0> : tensor<32x16x64xf16> -> !mirage_block.stensor<1x16x64xf16>
    %kt = input_loader %Kg imap <x = 0, y = 2> fmap 2 : tensor<32x64x4096xf16> -> !mirage_block.stensor<1x64x64xf16>
    %vt = input_loader %Vg imap <x = 0, y = 1> fmap 1 : tensor<32x4096x64xf16> -> !mirage_block.stensor<1x64x64xf16>
    %s = matmul %qt, %kt : !mirage_block.stensor<1x16x64xf16>, !mirage_block.stensor<1x64x64xf16> -> !mirage_block.stensor<1x16x64xf16>
    %e = exp %s : !mirage_block.stensor<1x16x64xf16>
    %ev = matmul %e, %vt : !mirage_block.stensor<1x16x64xf16>, !mirage_block.stensor<1x64x64xf16> -> !mirage_block.stensor<1x16x64xf16>
    %acc = forloop_accum %ev sum : !mirage_block.stensor<1x16x64xf16> -> !mirage_block.stensor<1x16x64xf16>
    %den = forloop_accum %e sum_last : !mirage_block.stensor<1x16x64xf16> -> !mirage_block.stensor<1x16x1xf16>
    %oa = output_saver %acc omap <x = 0, y = 2> : !mirage_block.stensor<1x16x64xf16> -> tensor<32x16x1024xf16>
    %od = output_saver %den omap <x = 0, y = 2> : !mirage_block.stensor<1x16x1xf16> -> tensor<32x16x16xf16>
    yield %oa, %od : tensor<32x16x1024xf16>, tensor<32x16x16xf16>
  }
  %O = mirage_kernel.graph_def(%Pg = %parts : tensor<32x16x1024xf16>, %Dg = %dens : tensor<32x16x16xf16>)
      -> tensor<32x16x64xf16> grid [32, 1, 1] block [128, 1, 1] forloop 1 {
    %pt = input_loader %Pg imap <x = 0, y = 1> : tensor<32x16x1024xf16> -> !mirage_block.stensor<1x16x1024xf16>
    %dt = input_loader %Dg imap <x = 0, y = 1> : tensor<32x16x16xf16> -> !mirage_block.stensor<1x16x16xf16>
    %num = reduction %pt dim 2 size 64 : !mirage_block.stensor<1x16x1024xf16> -> !mirage_block.stensor<1x16x64xf16>
    %sum = reduction %dt dim 2 : !mirage_block.stensor<1x16x16xf16> -> !mirage_block.stensor<1x16x1xf16>
    %y = div %num, %sum : !mirage_block.stensor<1x16x64xf16>, !mirage_block.stensor<1x16x1xf16> -> !mirage_block.stensor<1x16x64xf16>
    %ot = output_saver %y omap <x = 0, y = 1> : !mirage_block.stensor<1x16x64xf16> -> tensor<32x16x64xf16>
    yield %ot : tensor<32x16x64xf16>
  }
  return %O : tensor<32x16x64xf16>
}
