// µGraph: RMSNorm of 8 rows of 4096 elements, each row spread over a
// thread-block cluster of 4 blocks that sum their partial squares through
// distributed shared memory (sm_90a):
//   O = rms_norm(H, size 4096) = H / sqrt(Σ_j H[:, j]² / 4096)
//
// Block (x, y) holds columns [1024x, 1024x+1024) of row y. It squares and
// sums its slice (a 1x1 partial), cluster_reduce adds the partials of the 4
// blocks of its cluster (the whole row), and each block divides its own slice
// by the row's root mean square. No block ever sees the whole row, and no
// partial goes through global memory or a second kernel.
//
// The reference it computes is @rmsnorm_4096 (marked mirage.reference).

// CHECK-LABEL: func.func @rmsnorm_4096
// CHECK: mirage_kernel.rms_norm %{{.*}} size 4096 : tensor<8x4096xf16>
func.func @rmsnorm_4096(%H: tensor<8x4096xf16>) -> tensor<8x4096xf16> attributes {mirage.reference} {
  %O = mirage_kernel.rms_norm %H size 4096 : tensor<8x4096xf16>
  return %O : tensor<8x4096xf16>
}

// CHECK-LABEL: func.func @rmsnorm_cluster
// CHECK: mirage_kernel.graph_def
// CHECK-SAME: grid [4, 8, 1] block [128, 1, 1] forloop 1 cluster [4, 1, 1] {
// CHECK: %[[S:.*]] = reduction %{{.*}} dim 1 : !mirage_block.stensor<1x1024xf16> -> !mirage_block.stensor<1x1xf16>
// CHECK: cluster_reduce %[[S]] : !mirage_block.stensor<1x1xf16>
func.func @rmsnorm_cluster(%H: tensor<8x4096xf16>) -> tensor<8x4096xf16> {
  %O = mirage_kernel.graph_def(%Hg = %H : tensor<8x4096xf16>) -> tensor<8x4096xf16>
      grid [4, 8, 1] block [128, 1, 1] forloop 1 cluster [4, 1, 1] {
    %h = input_loader %Hg imap <x = 1, y = 0> : tensor<8x4096xf16> -> !mirage_block.stensor<1x1024xf16>
    %sq = thread_graph %h : !mirage_block.stensor<1x1024xf16> -> !mirage_block.stensor<1x1024xf16> {
    ^bb0(%x: f16):
      %s = square %x : f16
      yield %s : f16
    }
    %partial = reduction %sq dim 1 : !mirage_block.stensor<1x1024xf16> -> !mirage_block.stensor<1x1xf16>
    %total = cluster_reduce %partial : !mirage_block.stensor<1x1xf16>
    %mean = mul_scalar %total by 2.44140625E-4 : !mirage_block.stensor<1x1xf16>
    %rms = sqrt %mean : !mirage_block.stensor<1x1xf16>
    %y = div %h, %rms : !mirage_block.stensor<1x1024xf16>, !mirage_block.stensor<1x1xf16> -> !mirage_block.stensor<1x1024xf16>
    %o = output_saver %y omap <x = 1, y = 0> : !mirage_block.stensor<1x1024xf16> -> tensor<8x4096xf16>
    yield %o : tensor<8x4096xf16>
  }
  return %O : tensor<8x4096xf16>
}
