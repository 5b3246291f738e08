// µGraph: split-KV attention over 32-row tiles of Q for the mqa_bs1 benchmark
// (Q (1,1024,64), K (1,64,4096), V (1,4096,64), f16):
//   E = exp(matmul(Q, K));  O = matmul(div(E, reduction(E, dim 2)), V)
//
// Kernel 1 (grid [1, 16, 32], forloop 8): block (0, y, z) takes query rows
// [32z, 32z+32) and keys [256y, 256y+256), 32 per loop iteration, and
// accumulates its partial numerator (1x32x64) and denominator (1x32x1); the
// one head's K and V are read by 32 blocks each, from L2 after the first.
// Kernel 2 (grid [1, 256, 1]) adds the 16 partials of 4 rows with the
// strided reduction rule and divides.

// CHECK-LABEL: func.func @mqa_splitkv_bs1
// CHECK-SAME: (%{{.*}}: tensor<1x1024x64xf16>, %{{.*}}: tensor<1x64x4096xf16>, %{{.*}}: tensor<1x4096x64xf16>) -> tensor<1x1024x64xf16>
// CHECK: mirage_kernel.graph_def
// CHECK-SAME: -> (tensor<1x1024x1024xf16>, tensor<1x1024x16xf16>) grid [1, 16, 32] block [128, 1, 1] forloop 8 {
// CHECK: input_loader %{{.*}} imap <x = 0, z = 1> : tensor<1x1024x64xf16> -> !mirage_block.stensor<1x32x64xf16>
// CHECK: input_loader %{{.*}} imap <x = 0, y = 2> fmap 2 : tensor<1x64x4096xf16> -> !mirage_block.stensor<1x64x32xf16>
// CHECK: input_loader %{{.*}} imap <x = 0, y = 1> fmap 1 : tensor<1x4096x64xf16> -> !mirage_block.stensor<1x32x64xf16>
// CHECK: matmul %{{.*}}, %{{.*}} : !mirage_block.stensor<1x32x64xf16>, !mirage_block.stensor<1x64x32xf16> -> !mirage_block.stensor<1x32x32xf16>
// CHECK: exp %{{.*}} : !mirage_block.stensor<1x32x32xf16>
// CHECK: matmul %{{.*}}, %{{.*}} : !mirage_block.stensor<1x32x32xf16>, !mirage_block.stensor<1x32x64xf16> -> !mirage_block.stensor<1x32x64xf16>
// CHECK: forloop_accum %{{.*}} sum : !mirage_block.stensor<1x32x64xf16> -> !mirage_block.stensor<1x32x64xf16>
// CHECK: forloop_accum %{{.*}} sum_last : !mirage_block.stensor<1x32x32xf16> -> !mirage_block.stensor<1x32x1xf16>
// CHECK: output_saver %{{.*}} omap <x = 0, y = 2, z = 1> : !mirage_block.stensor<1x32x64xf16> -> tensor<1x1024x1024xf16>
// CHECK: output_saver %{{.*}} omap <x = 0, y = 2, z = 1> : !mirage_block.stensor<1x32x1xf16> -> tensor<1x1024x16xf16>
// CHECK: yield {{.*}} : tensor<1x1024x1024xf16>, tensor<1x1024x16xf16>
// CHECK: mirage_kernel.graph_def
// CHECK-SAME: -> tensor<1x1024x64xf16> grid [1, 256, 1] block [128, 1, 1] forloop 1 {
// CHECK: input_loader %{{.*}} imap <x = 0, y = 1> : tensor<1x1024x1024xf16> -> !mirage_block.stensor<1x4x1024xf16>
// CHECK: input_loader %{{.*}} imap <x = 0, y = 1> : tensor<1x1024x16xf16> -> !mirage_block.stensor<1x4x16xf16>
// CHECK: reduction %{{.*}} dim 2 size 64 : !mirage_block.stensor<1x4x1024xf16> -> !mirage_block.stensor<1x4x64xf16>
// CHECK: reduction %{{.*}} dim 2 : !mirage_block.stensor<1x4x16xf16> -> !mirage_block.stensor<1x4x1xf16>
// CHECK: div %{{.*}}, %{{.*}} : !mirage_block.stensor<1x4x64xf16>, !mirage_block.stensor<1x4x1xf16> -> !mirage_block.stensor<1x4x64xf16>
// CHECK: output_saver %{{.*}} omap <x = 0, y = 1> : !mirage_block.stensor<1x4x64xf16> -> tensor<1x1024x64xf16>
// CHECK: yield {{.*}} : tensor<1x1024x64xf16>
// CHECK: return {{.*}} : tensor<1x1024x64xf16>
func.func @mqa_splitkv_bs1(%Q: tensor<1x1024x64xf16>, %K: tensor<1x64x4096xf16>, %V: tensor<1x4096x64xf16>) -> tensor<1x1024x64xf16> {
  %parts, %dens = mirage_kernel.graph_def(%Qg = %Q : tensor<1x1024x64xf16>, %Kg = %K : tensor<1x64x4096xf16>, %Vg = %V : tensor<1x4096x64xf16>)
      -> (tensor<1x1024x1024xf16>, tensor<1x1024x16xf16>) grid [1, 16, 32] block [128, 1, 1] forloop 8 {
    %qt = input_loader %Qg imap <x = 0, z = 1> : tensor<1x1024x64xf16> -> !mirage_block.stensor<1x32x64xf16>
    %kt = input_loader %Kg imap <x = 0, y = 2> fmap 2 : tensor<1x64x4096xf16> -> !mirage_block.stensor<1x64x32xf16>
    %vt = input_loader %Vg imap <x = 0, y = 1> fmap 1 : tensor<1x4096x64xf16> -> !mirage_block.stensor<1x32x64xf16>
    %s = matmul %qt, %kt : !mirage_block.stensor<1x32x64xf16>, !mirage_block.stensor<1x64x32xf16> -> !mirage_block.stensor<1x32x32xf16>
    %e = exp %s : !mirage_block.stensor<1x32x32xf16>
    %ev = matmul %e, %vt : !mirage_block.stensor<1x32x32xf16>, !mirage_block.stensor<1x32x64xf16> -> !mirage_block.stensor<1x32x64xf16>
    %acc = forloop_accum %ev sum : !mirage_block.stensor<1x32x64xf16> -> !mirage_block.stensor<1x32x64xf16>
    %den = forloop_accum %e sum_last : !mirage_block.stensor<1x32x32xf16> -> !mirage_block.stensor<1x32x1xf16>
    %oa = output_saver %acc omap <x = 0, y = 2, z = 1> : !mirage_block.stensor<1x32x64xf16> -> tensor<1x1024x1024xf16>
    %od = output_saver %den omap <x = 0, y = 2, z = 1> : !mirage_block.stensor<1x32x1xf16> -> tensor<1x1024x16xf16>
    yield %oa, %od : tensor<1x1024x1024xf16>, tensor<1x1024x16xf16>
  }
  %O = mirage_kernel.graph_def(%Pg = %parts : tensor<1x1024x1024xf16>, %Dg = %dens : tensor<1x1024x16xf16>)
      -> tensor<1x1024x64xf16> grid [1, 256, 1] block [128, 1, 1] forloop 1 {
    %pt = input_loader %Pg imap <x = 0, y = 1> : tensor<1x1024x1024xf16> -> !mirage_block.stensor<1x4x1024xf16>
    %dt = input_loader %Dg imap <x = 0, y = 1> : tensor<1x1024x16xf16> -> !mirage_block.stensor<1x4x16xf16>
    %num = reduction %pt dim 2 size 64 : !mirage_block.stensor<1x4x1024xf16> -> !mirage_block.stensor<1x4x64xf16>
    %sum = reduction %dt dim 2 : !mirage_block.stensor<1x4x16xf16> -> !mirage_block.stensor<1x4x1xf16>
    %y = div %num, %sum : !mirage_block.stensor<1x4x64xf16>, !mirage_block.stensor<1x4x1xf16> -> !mirage_block.stensor<1x4x64xf16>
    %ot = output_saver %y omap <x = 0, y = 1> : !mirage_block.stensor<1x4x64xf16> -> tensor<1x1024x64xf16>
    yield %ot : tensor<1x1024x64xf16>
  }
  return %O : tensor<1x1024x64xf16>
}
