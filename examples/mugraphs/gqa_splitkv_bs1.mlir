// µGraph: two-kernel split-KV ("FlashDecoding") attention for the gqa_bs1
// benchmark (Q (2,256,64), K (2,64,4096), V (2,4096,64), f16):
//   E = exp(matmul(Q, K));  O = matmul(div(E, reduction(E, dim 2)), V)
//
// Kernel 1 (grid [2, 16, 1], forloop 4): block (x, y) handles head x and the
// KV slice kv ∈ [256y, 256y+256), 64 keys per loop iteration:
//   acc_y[m, :] = Σ_{kv in slice y} exp(S[m, kv]) · V[kv, :]      (1x256x64)
//   den_y[m]    = Σ_{kv in slice y} exp(S[m, kv])                 (1x256x1)
// Softmax is exp / sum(exp) with no max-subtraction, so partials need no
// rescaling and simply add up. With omap <x = 0, y = 2>, block y writes its
// 64 partial columns at parts[x, :, 64*y : 64*y+64) (parts is 2x256x1024) and
// its denominator at dens[x, :, y] (dens is 2x256x16).
//
// Kernel 2 (grid [2, 4, 1], forloop 1): block (x, y) takes head x, rows
// [64y, 64y+64), and combines the partials with the STRIDED reduction rule
//   reduction(parts dim 2 size 64): out[.., j] = Σ_{k=0..15} parts[.., j + 64k]
// Since parts[.., j + 64k] = acc_k[.., j], this is exactly Σ_k acc_k[.., j] =
// (E·V)[.., j], the sum over all 4096 keys. (A contiguous "chunked" sum would
// instead add 16 adjacent columns of one block and be wrong.)
//   reduction(dens dim 2) sums the 16 denominators to Σ_kv E[m, kv]; dividing
// gives O = (E·V) / Σ E = matmul(div(E, reduction(E, dim 2)), V).

// CHECK-LABEL: func.func @gqa_splitkv_bs1
// CHECK-SAME: (%{{.*}}: tensor<2x256x64xf16>, %{{.*}}: tensor<2x64x4096xf16>, %{{.*}}: tensor<2x4096x64xf16>) -> tensor<2x256x64xf16>
func.func @gqa_splitkv_bs1(%Q: tensor<2x256x64xf16>, %K: tensor<2x64x4096xf16>, %V: tensor<2x4096x64xf16>) -> tensor<2x256x64xf16> {
  // Kernel 1: per-KV-slice partial numerators and denominators.
  // CHECK: %[[P:.*]]:2 = mirage_kernel.graph_def
  // CHECK-SAME: -> (tensor<2x256x1024xf16>, tensor<2x256x16xf16>) grid [2, 16, 1] block [128, 1, 1] forloop 4 {
  // CHECK: %[[QT:.*]] = input_loader %{{.*}} imap <x = 0> : tensor<2x256x64xf16> -> !mirage_block.stensor<1x256x64xf16>
  // CHECK: %[[KT:.*]] = input_loader %{{.*}} imap <x = 0, y = 2> fmap 2 : tensor<2x64x4096xf16> -> !mirage_block.stensor<1x64x64xf16>
  // CHECK: %[[VT:.*]] = input_loader %{{.*}} imap <x = 0, y = 1> fmap 1 : tensor<2x4096x64xf16> -> !mirage_block.stensor<1x64x64xf16>
  // CHECK: %[[S:.*]] = matmul %[[QT]], %[[KT]]
  // CHECK: %[[E:.*]] = exp %[[S]]
  // CHECK: %[[EV:.*]] = matmul %[[E]], %[[VT]]
  // CHECK: %[[ACC:.*]] = forloop_accum %[[EV]] sum : !mirage_block.stensor<1x256x64xf16> -> !mirage_block.stensor<1x256x64xf16>
  // CHECK: %[[DEN:.*]] = forloop_accum %[[E]] sum_last : !mirage_block.stensor<1x256x64xf16> -> !mirage_block.stensor<1x256x1xf16>
  // CHECK: %[[OA:.*]] = output_saver %[[ACC]] omap <x = 0, y = 2> : !mirage_block.stensor<1x256x64xf16> -> tensor<2x256x1024xf16>
  // CHECK: %[[OD:.*]] = output_saver %[[DEN]] omap <x = 0, y = 2> : !mirage_block.stensor<1x256x1xf16> -> tensor<2x256x16xf16>
  // CHECK: yield %[[OA]], %[[OD]] : tensor<2x256x1024xf16>, tensor<2x256x16xf16>
  %parts, %dens = mirage_kernel.graph_def(%Qg = %Q : tensor<2x256x64xf16>, %Kg = %K : tensor<2x64x4096xf16>,
                                          %Vg = %V : tensor<2x4096x64xf16>)
      -> (tensor<2x256x1024xf16>, tensor<2x256x16xf16>) grid [2, 16, 1] block [128, 1, 1] forloop 4 {
    %qt = input_loader %Qg imap <x = 0> : tensor<2x256x64xf16> -> !mirage_block.stensor<1x256x64xf16>
    %kt = input_loader %Kg imap <x = 0, y = 2> fmap 2 : tensor<2x64x4096xf16> -> !mirage_block.stensor<1x64x64xf16>
    %vt = input_loader %Vg imap <x = 0, y = 1> fmap 1 : tensor<2x4096x64xf16> -> !mirage_block.stensor<1x64x64xf16>
    %s = matmul %qt, %kt : !mirage_block.stensor<1x256x64xf16>, !mirage_block.stensor<1x64x64xf16> -> !mirage_block.stensor<1x256x64xf16>
    %e = exp %s : !mirage_block.stensor<1x256x64xf16>
    %ev = matmul %e, %vt : !mirage_block.stensor<1x256x64xf16>, !mirage_block.stensor<1x64x64xf16> -> !mirage_block.stensor<1x256x64xf16>
    %acc = forloop_accum %ev sum : !mirage_block.stensor<1x256x64xf16> -> !mirage_block.stensor<1x256x64xf16>
    %den = forloop_accum %e sum_last : !mirage_block.stensor<1x256x64xf16> -> !mirage_block.stensor<1x256x1xf16>
    %oa = output_saver %acc omap <x = 0, y = 2> : !mirage_block.stensor<1x256x64xf16> -> tensor<2x256x1024xf16>
    %od = output_saver %den omap <x = 0, y = 2> : !mirage_block.stensor<1x256x1xf16> -> tensor<2x256x16xf16>
    yield %oa, %od : tensor<2x256x1024xf16>, tensor<2x256x16xf16>
  }
  // Kernel 2: strided combination of the 16 partials, then the division.
  // CHECK: %[[O:.*]] = mirage_kernel.graph_def(%{{.*}} = %[[P]]#0 : tensor<2x256x1024xf16>, %{{.*}} = %[[P]]#1 : tensor<2x256x16xf16>)
  // CHECK-SAME: -> tensor<2x256x64xf16> grid [2, 4, 1] block [128, 1, 1] forloop 1 {
  // CHECK: %[[PT:.*]] = input_loader %{{.*}} imap <x = 0, y = 1> : tensor<2x256x1024xf16> -> !mirage_block.stensor<1x64x1024xf16>
  // CHECK: %[[DT:.*]] = input_loader %{{.*}} imap <x = 0, y = 1> : tensor<2x256x16xf16> -> !mirage_block.stensor<1x64x16xf16>
  // CHECK: %[[NUM:.*]] = reduction %[[PT]] dim 2 size 64 : !mirage_block.stensor<1x64x1024xf16> -> !mirage_block.stensor<1x64x64xf16>
  // CHECK: %[[SUM:.*]] = reduction %[[DT]] dim 2 : !mirage_block.stensor<1x64x16xf16> -> !mirage_block.stensor<1x64x1xf16>
  // CHECK: %[[Y:.*]] = div %[[NUM]], %[[SUM]] : !mirage_block.stensor<1x64x64xf16>, !mirage_block.stensor<1x64x1xf16> -> !mirage_block.stensor<1x64x64xf16>
  // CHECK: %[[OT:.*]] = output_saver %[[Y]] omap <x = 0, y = 1> : !mirage_block.stensor<1x64x64xf16> -> tensor<2x256x64xf16>
  // CHECK: yield %[[OT]] : tensor<2x256x64xf16>
  %O = mirage_kernel.graph_def(%Pg = %parts : tensor<2x256x1024xf16>, %Dg = %dens : tensor<2x256x16xf16>)
      -> tensor<2x256x64xf16> grid [2, 4, 1] block [128, 1, 1] forloop 1 {
    %pt = input_loader %Pg imap <x = 0, y = 1> : tensor<2x256x1024xf16> -> !mirage_block.stensor<1x64x1024xf16>
    %dt = input_loader %Dg imap <x = 0, y = 1> : tensor<2x256x16xf16> -> !mirage_block.stensor<1x64x16xf16>
    %num = reduction %pt dim 2 size 64 : !mirage_block.stensor<1x64x1024xf16> -> !mirage_block.stensor<1x64x64xf16>
    %sum = reduction %dt dim 2 : !mirage_block.stensor<1x64x16xf16> -> !mirage_block.stensor<1x64x1xf16>
    %y = div %num, %sum : !mirage_block.stensor<1x64x64xf16>, !mirage_block.stensor<1x64x1xf16> -> !mirage_block.stensor<1x64x64xf16>
    %ot = output_saver %y omap <x = 0, y = 1> : !mirage_block.stensor<1x64x64xf16> -> tensor<2x256x64xf16>
    yield %ot : tensor<2x256x64xf16>
  }
  // CHECK: return %[[O]] : tensor<2x256x64xf16>
  return %O : tensor<2x256x64xf16>
}
