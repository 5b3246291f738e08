// µGraph: split-KV attention over 64-row tiles of Q for the gqa_bs8 benchmark
// (Q (16,256,64), K (16,64,4096), V (16,4096,64), f16):
//   E = exp(matmul(Q, K));  O = matmul(div(E, reduction(E, dim 2)), V)
//
// Kernel 1 (grid [16, 16, 4], forloop 8): block (x, y, z) takes head x, query
// rows [64z, 64z+64) and keys [256y, 256y+256), 32 per loop iteration, and
// accumulates its partial numerator (1x64x64) and denominator (1x64x1).
// The saved µGraphs of the public implementation split the keys the same
// way but take 64 keys per iteration (forloop 4): the 32-key tiles halved
// each block's stages and score tile, so more blocks shared an SM. Since the
// score tile stays in registers (register chains, docs/CodeGeneration.md),
// the saved 64-key µGraph is the faster one (24.8 vs 26.9 µs on an H200,
// docs/Benchmarks/AttentionMugraphs.md). Kernel 2 (grid
// [16, 32, 1]: 512 blocks of 8 rows) adds the 16 partials with the
// strided reduction rule and divides.

// CHECK-LABEL: func.func @gqa_splitkv_bs8
// CHECK-SAME: (%{{.*}}: tensor<16x256x64xf16>, %{{.*}}: tensor<16x64x4096xf16>, %{{.*}}: tensor<16x4096x64xf16>) -> tensor<16x256x64xf16>
// CHECK: mirage_kernel.graph_def
// CHECK-SAME: -> (tensor<16x256x1024xf16>, tensor<16x256x16xf16>) grid [16, 16, 4] block [128, 1, 1] forloop 8 {
// CHECK: input_loader %{{.*}} imap <x = 0, z = 1> : tensor<16x256x64xf16> -> !mirage_block.stensor<1x64x64xf16>
// CHECK: input_loader %{{.*}} imap <x = 0, y = 2> fmap 2 : tensor<16x64x4096xf16> -> !mirage_block.stensor<1x64x32xf16>
// CHECK: input_loader %{{.*}} imap <x = 0, y = 1> fmap 1 : tensor<16x4096x64xf16> -> !mirage_block.stensor<1x32x64xf16>
// CHECK: matmul %{{.*}}, %{{.*}} : !mirage_block.stensor<1x64x64xf16>, !mirage_block.stensor<1x64x32xf16> -> !mirage_block.stensor<1x64x32xf16>
// CHECK: exp %{{.*}} : !mirage_block.stensor<1x64x32xf16>
// CHECK: matmul %{{.*}}, %{{.*}} : !mirage_block.stensor<1x64x32xf16>, !mirage_block.stensor<1x32x64xf16> -> !mirage_block.stensor<1x64x64xf16>
// CHECK: forloop_accum %{{.*}} sum : !mirage_block.stensor<1x64x64xf16> -> !mirage_block.stensor<1x64x64xf16>
// CHECK: forloop_accum %{{.*}} sum_last : !mirage_block.stensor<1x64x32xf16> -> !mirage_block.stensor<1x64x1xf16>
// CHECK: output_saver %{{.*}} omap <x = 0, y = 2, z = 1> : !mirage_block.stensor<1x64x64xf16> -> tensor<16x256x1024xf16>
// CHECK: output_saver %{{.*}} omap <x = 0, y = 2, z = 1> : !mirage_block.stensor<1x64x1xf16> -> tensor<16x256x16xf16>
// CHECK: yield {{.*}} : tensor<16x256x1024xf16>, tensor<16x256x16xf16>
// CHECK: mirage_kernel.graph_def
// CHECK-SAME: -> tensor<16x256x64xf16> grid [16, 32, 1] block [128, 1, 1] forloop 1 {
// CHECK: input_loader %{{.*}} imap <x = 0, y = 1> : tensor<16x256x1024xf16> -> !mirage_block.stensor<1x8x1024xf16>
// CHECK: input_loader %{{.*}} imap <x = 0, y = 1> : tensor<16x256x16xf16> -> !mirage_block.stensor<1x8x16xf16>
// CHECK: reduction %{{.*}} dim 2 size 64 : !mirage_block.stensor<1x8x1024xf16> -> !mirage_block.stensor<1x8x64xf16>
// CHECK: reduction %{{.*}} dim 2 : !mirage_block.stensor<1x8x16xf16> -> !mirage_block.stensor<1x8x1xf16>
// CHECK: div %{{.*}}, %{{.*}} : !mirage_block.stensor<1x8x64xf16>, !mirage_block.stensor<1x8x1xf16> -> !mirage_block.stensor<1x8x64xf16>
// CHECK: output_saver %{{.*}} omap <x = 0, y = 1> : !mirage_block.stensor<1x8x64xf16> -> tensor<16x256x64xf16>
// CHECK: yield {{.*}} : tensor<16x256x64xf16>
// CHECK: return {{.*}} : tensor<16x256x64xf16>
func.func @gqa_splitkv_bs8(%Q: tensor<16x256x64xf16>, %K: tensor<16x64x4096xf16>, %V: tensor<16x4096x64xf16>) -> tensor<16x256x64xf16> {
  %parts, %dens = mirage_kernel.graph_def(%Qg = %Q : tensor<16x256x64xf16>, %Kg = %K : tensor<16x64x4096xf16>, %Vg = %V : tensor<16x4096x64xf16>)
      -> (tensor<16x256x1024xf16>, tensor<16x256x16xf16>) grid [16, 16, 4] block [128, 1, 1] forloop 8 {
    %qt = input_loader %Qg imap <x = 0, z = 1> : tensor<16x256x64xf16> -> !mirage_block.stensor<1x64x64xf16>
    %kt = input_loader %Kg imap <x = 0, y = 2> fmap 2 : tensor<16x64x4096xf16> -> !mirage_block.stensor<1x64x32xf16>
    %vt = input_loader %Vg imap <x = 0, y = 1> fmap 1 : tensor<16x4096x64xf16> -> !mirage_block.stensor<1x32x64xf16>
    %s = matmul %qt, %kt : !mirage_block.stensor<1x64x64xf16>, !mirage_block.stensor<1x64x32xf16> -> !mirage_block.stensor<1x64x32xf16>
    %e = exp %s : !mirage_block.stensor<1x64x32xf16>
    %ev = matmul %e, %vt : !mirage_block.stensor<1x64x32xf16>, !mirage_block.stensor<1x32x64xf16> -> !mirage_block.stensor<1x64x64xf16>
    %acc = forloop_accum %ev sum : !mirage_block.stensor<1x64x64xf16> -> !mirage_block.stensor<1x64x64xf16>
    %den = forloop_accum %e sum_last : !mirage_block.stensor<1x64x32xf16> -> !mirage_block.stensor<1x64x1xf16>
    %oa = output_saver %acc omap <x = 0, y = 2, z = 1> : !mirage_block.stensor<1x64x64xf16> -> tensor<16x256x1024xf16>
    %od = output_saver %den omap <x = 0, y = 2, z = 1> : !mirage_block.stensor<1x64x1xf16> -> tensor<16x256x16xf16>
    yield %oa, %od : tensor<16x256x1024xf16>, tensor<16x256x16xf16>
  }
  %O = mirage_kernel.graph_def(%Pg = %parts : tensor<16x256x1024xf16>, %Dg = %dens : tensor<16x256x16xf16>)
      -> tensor<16x256x64xf16> grid [16, 32, 1] block [128, 1, 1] forloop 1 {
    %pt = input_loader %Pg imap <x = 0, y = 1> : tensor<16x256x1024xf16> -> !mirage_block.stensor<1x8x1024xf16>
    %dt = input_loader %Dg imap <x = 0, y = 1> : tensor<16x256x16xf16> -> !mirage_block.stensor<1x8x16xf16>
    %num = reduction %pt dim 2 size 64 : !mirage_block.stensor<1x8x1024xf16> -> !mirage_block.stensor<1x8x64xf16>
    %sum = reduction %dt dim 2 : !mirage_block.stensor<1x8x16xf16> -> !mirage_block.stensor<1x8x1xf16>
    %y = div %num, %sum : !mirage_block.stensor<1x8x64xf16>, !mirage_block.stensor<1x8x1xf16> -> !mirage_block.stensor<1x8x64xf16>
    %ot = output_saver %y omap <x = 0, y = 1> : !mirage_block.stensor<1x8x64xf16> -> tensor<16x256x64xf16>
    yield %ot : tensor<16x256x64xf16>
  }
  return %O : tensor<16x256x64xf16>
}
