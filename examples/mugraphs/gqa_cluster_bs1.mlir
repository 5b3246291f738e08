// µGraph: split-KV attention for the gqa_bs1 benchmark in ONE kernel, the key
// slices of each query-row tile forming a thread-block cluster (sm_90a)
// (Q (2,256,64), K (2,64,4096), V (2,4096,64), f16):
//   E = exp(matmul(Q, K));  O = matmul(div(E, reduction(E, dim 2)), V)
//
// Block (x, y, z) of grid [8, 2, 16] takes head y, query rows [16z, 16z+16)
// and keys [512x, 512x+512), 32 per loop iteration, and accumulates its
// partial numerator (1x16x64) and denominator (1x16x1). The 8 blocks of a
// cluster (one per key slice) then finish the sum through distributed shared
// memory: cluster_reduce_scatter leaves block x the columns [8x, 8x+8) of
// the summed numerator, cluster_reduce gives every block the summed
// denominator, and block x divides and saves its 16x8 piece of O. No partial
// sum goes through global memory and there is no second kernel, unlike
// gqa_splitkv_rows_bs1.mlir; on an H100 it is nevertheless slower (15.1 µs
// against 9.7, docs/Benchmarks/AttentionMugraphs.md): a cluster launch
// alone costs about 4 µs there, and 8 key slices make 16-iteration loops.

// CHECK-LABEL: func.func @gqa_cluster_bs1
// CHECK-SAME: (%{{.*}}: tensor<2x256x64xf16>, %{{.*}}: tensor<2x64x4096xf16>, %{{.*}}: tensor<2x4096x64xf16>) -> tensor<2x256x64xf16>
// CHECK: mirage_kernel.graph_def
// CHECK-SAME: -> tensor<2x256x64xf16> grid [8, 2, 16] block [128, 1, 1] forloop 16 cluster [8, 1, 1] {
// CHECK: forloop_accum %{{.*}} sum : !mirage_block.stensor<1x16x64xf16> -> !mirage_block.stensor<1x16x64xf16>
// CHECK: forloop_accum %{{.*}} sum_last : !mirage_block.stensor<1x16x32xf16> -> !mirage_block.stensor<1x16x1xf16>
// CHECK: cluster_reduce_scatter %{{.*}} dim 2 : !mirage_block.stensor<1x16x64xf16> -> !mirage_block.stensor<1x16x8xf16>
// CHECK: cluster_reduce %{{.*}} : !mirage_block.stensor<1x16x1xf16>
// CHECK: output_saver %{{.*}} omap <x = 2, y = 0, z = 1> : !mirage_block.stensor<1x16x8xf16> -> tensor<2x256x64xf16>
// CHECK-NOT: mirage_kernel.graph_def
// CHECK: return {{.*}} : tensor<2x256x64xf16>
func.func @gqa_cluster_bs1(%Q: tensor<2x256x64xf16>, %K: tensor<2x64x4096xf16>, %V: tensor<2x4096x64xf16>) -> tensor<2x256x64xf16> {
  %O = mirage_kernel.graph_def(%Qg = %Q : tensor<2x256x64xf16>, %Kg = %K : tensor<2x64x4096xf16>, %Vg = %V : tensor<2x4096x64xf16>)
      -> tensor<2x256x64xf16> grid [8, 2, 16] block [128, 1, 1] forloop 16 cluster [8, 1, 1] {
    %qt = input_loader %Qg imap <y = 0, z = 1> : tensor<2x256x64xf16> -> !mirage_block.stensor<1x16x64xf16>
    %kt = input_loader %Kg imap <x = 2, y = 0> fmap 2 : tensor<2x64x4096xf16> -> !mirage_block.stensor<1x64x32xf16>
    %vt = input_loader %Vg imap <x = 1, y = 0> fmap 1 : tensor<2x4096x64xf16> -> !mirage_block.stensor<1x32x64xf16>
    %s = matmul %qt, %kt : !mirage_block.stensor<1x16x64xf16>, !mirage_block.stensor<1x64x32xf16> -> !mirage_block.stensor<1x16x32xf16>
    %e = exp %s : !mirage_block.stensor<1x16x32xf16>
    %ev = matmul %e, %vt : !mirage_block.stensor<1x16x32xf16>, !mirage_block.stensor<1x32x64xf16> -> !mirage_block.stensor<1x16x64xf16>
    %acc = forloop_accum %ev sum : !mirage_block.stensor<1x16x64xf16> -> !mirage_block.stensor<1x16x64xf16>
    %den = forloop_accum %e sum_last : !mirage_block.stensor<1x16x32xf16> -> !mirage_block.stensor<1x16x1xf16>
    %num = cluster_reduce_scatter %acc dim 2 : !mirage_block.stensor<1x16x64xf16> -> !mirage_block.stensor<1x16x8xf16>
    %tot = cluster_reduce %den : !mirage_block.stensor<1x16x1xf16>
    %y = div %num, %tot : !mirage_block.stensor<1x16x8xf16>, !mirage_block.stensor<1x16x1xf16> -> !mirage_block.stensor<1x16x8xf16>
    %o = output_saver %y omap <x = 2, y = 0, z = 1> : !mirage_block.stensor<1x16x8xf16> -> tensor<2x256x64xf16>
    yield %o : tensor<2x256x64xf16>
  }
  return %O : tensor<2x256x64xf16>
}
