// µGraph: the single-kernel fused RMSNorm + Linear of the Mirage paper, for
// the rmsnorm_linear_bs1 benchmark (X (2,4096), W (4096,6144), f16):
//   O = matmul(rms_norm(X, 4096), W)
//
// Because rms_norm is a per-row scale, it commutes with the matmul:
//   O[m, :] = (Σ_k X[m,k] W[k,:]) / sqrt(Σ_k X[m,k]² / 4096)
// so both sums accumulate over the same for-loop over k and the division runs
// once, after the loop.
//   grid [256,1,1]: block x owns output columns [24x, 24x+24) of W and O.
//   forloop 32:     iteration i reads X[:, 128i : 128i+128] and
//                   W[128i : 128i+128, 24x : 24x+24].
//   forloop_accum sum      -> X·W partial product, summed over the loop;
//   forloop_accum rms_last -> sqrt(Σ x² / 4096) per row (loop and last dim).

// CHECK-LABEL: func.func @rmsnorm_linear_fused
// CHECK-SAME: (%{{.*}}: tensor<2x4096xf16>, %{{.*}}: tensor<4096x6144xf16>) -> tensor<2x6144xf16>
func.func @rmsnorm_linear_fused(%X: tensor<2x4096xf16>, %W: tensor<4096x6144xf16>) -> tensor<2x6144xf16> {
  // CHECK: %[[RES:.*]] = mirage_kernel.graph_def
  // CHECK-SAME: -> tensor<2x6144xf16> grid [256, 1, 1] block [128, 1, 1] forloop 32 {
  // CHECK: %[[XT:.*]] = input_loader %{{.*}} imap <> fmap 1 : tensor<2x4096xf16> -> !mirage_block.stensor<2x128xf16>
  // CHECK: %[[WT:.*]] = input_loader %{{.*}} imap <x = 1> fmap 0 : tensor<4096x6144xf16> -> !mirage_block.stensor<128x24xf16>
  // CHECK: %[[MM:.*]] = matmul %[[XT]], %[[WT]] : !mirage_block.stensor<2x128xf16>, !mirage_block.stensor<128x24xf16> -> !mirage_block.stensor<2x24xf16>
  // CHECK: %[[ACC:.*]] = forloop_accum %[[MM]] sum : !mirage_block.stensor<2x24xf16> -> !mirage_block.stensor<2x24xf16>
  // CHECK: %[[RMS:.*]] = forloop_accum %[[XT]] rms_last : !mirage_block.stensor<2x128xf16> -> !mirage_block.stensor<2x1xf16>
  // CHECK: %[[Y:.*]] = div %[[ACC]], %[[RMS]] : !mirage_block.stensor<2x24xf16>, !mirage_block.stensor<2x1xf16> -> !mirage_block.stensor<2x24xf16>
  // CHECK: %[[O:.*]] = output_saver %[[Y]] omap <x = 1> : !mirage_block.stensor<2x24xf16> -> tensor<2x6144xf16>
  // CHECK: yield %[[O]] : tensor<2x6144xf16>
  %O = mirage_kernel.graph_def(%Xg = %X : tensor<2x4096xf16>, %Wg = %W : tensor<4096x6144xf16>)
      -> tensor<2x6144xf16> grid [256, 1, 1] block [128, 1, 1] forloop 32 {
    %xt = input_loader %Xg imap <> fmap 1 : tensor<2x4096xf16> -> !mirage_block.stensor<2x128xf16>
    %wt = input_loader %Wg imap <x = 1> fmap 0 : tensor<4096x6144xf16> -> !mirage_block.stensor<128x24xf16>
    %mm = matmul %xt, %wt : !mirage_block.stensor<2x128xf16>, !mirage_block.stensor<128x24xf16> -> !mirage_block.stensor<2x24xf16>
    %acc = forloop_accum %mm sum : !mirage_block.stensor<2x24xf16> -> !mirage_block.stensor<2x24xf16>
    %rms = forloop_accum %xt rms_last : !mirage_block.stensor<2x128xf16> -> !mirage_block.stensor<2x1xf16>
    %y = div %acc, %rms : !mirage_block.stensor<2x24xf16>, !mirage_block.stensor<2x1xf16> -> !mirage_block.stensor<2x24xf16>
    %out = output_saver %y omap <x = 1> : !mirage_block.stensor<2x24xf16> -> tensor<2x6144xf16>
    yield %out : tensor<2x6144xf16>
  }
  // CHECK: return %[[RES]] : tensor<2x6144xf16>
  return %O : tensor<2x6144xf16>
}
