// Input of ptxas-bf16.test: examples/mugraphs/rmsnorm_linear_fused.mlir and
// examples/mugraphs/gqa_splitkv_bs8.mlir with bf16 tensors. The first runs
// its matmul as a register sum (mma.sync, or wgmma with --wgmma on sm_90a),
// the second keeps E = exp(Q x K) in registers (a register chain).

func.func @rmsnorm_linear_fused_bf16(%X: tensor<2x4096xbf16>, %W: tensor<4096x6144xbf16>) -> tensor<2x6144xbf16> {
  %O = mirage_kernel.graph_def(%Xg = %X : tensor<2x4096xbf16>, %Wg = %W : tensor<4096x6144xbf16>)
      -> tensor<2x6144xbf16> grid [256, 1, 1] block [128, 1, 1] forloop 32 {
    %xt = input_loader %Xg imap <> fmap 1 : tensor<2x4096xbf16> -> !mirage_block.stensor<2x128xbf16>
    %wt = input_loader %Wg imap <x = 1> fmap 0 : tensor<4096x6144xbf16> -> !mirage_block.stensor<128x24xbf16>
    %mm = matmul %xt, %wt : !mirage_block.stensor<2x128xbf16>, !mirage_block.stensor<128x24xbf16> -> !mirage_block.stensor<2x24xbf16>
    %acc = forloop_accum %mm sum : !mirage_block.stensor<2x24xbf16> -> !mirage_block.stensor<2x24xbf16>
    %rms = forloop_accum %xt rms_last : !mirage_block.stensor<2x128xbf16> -> !mirage_block.stensor<2x1xbf16>
    %y = div %acc, %rms : !mirage_block.stensor<2x24xbf16>, !mirage_block.stensor<2x1xbf16> -> !mirage_block.stensor<2x24xbf16>
    %out = output_saver %y omap <x = 1> : !mirage_block.stensor<2x24xbf16> -> tensor<2x6144xbf16>
    yield %out : tensor<2x6144xbf16>
  }
  return %O : tensor<2x6144xbf16>
}

func.func @gqa_splitkv_bs8_bf16(%Q: tensor<16x256x64xbf16>, %K: tensor<16x64x4096xbf16>, %V: tensor<16x4096x64xbf16>) -> tensor<16x256x64xbf16> {
  %parts, %dens = mirage_kernel.graph_def(%Qg = %Q : tensor<16x256x64xbf16>, %Kg = %K : tensor<16x64x4096xbf16>, %Vg = %V : tensor<16x4096x64xbf16>)
      -> (tensor<16x256x1024xbf16>, tensor<16x256x16xbf16>) grid [16, 16, 4] block [128, 1, 1] forloop 8 {
    %qt = input_loader %Qg imap <x = 0, z = 1> : tensor<16x256x64xbf16> -> !mirage_block.stensor<1x64x64xbf16>
    %kt = input_loader %Kg imap <x = 0, y = 2> fmap 2 : tensor<16x64x4096xbf16> -> !mirage_block.stensor<1x64x32xbf16>
    %vt = input_loader %Vg imap <x = 0, y = 1> fmap 1 : tensor<16x4096x64xbf16> -> !mirage_block.stensor<1x32x64xbf16>
    %s = matmul %qt, %kt : !mirage_block.stensor<1x64x64xbf16>, !mirage_block.stensor<1x64x32xbf16> -> !mirage_block.stensor<1x64x32xbf16>
    %e = exp %s : !mirage_block.stensor<1x64x32xbf16>
    %ev = matmul %e, %vt : !mirage_block.stensor<1x64x32xbf16>, !mirage_block.stensor<1x32x64xbf16> -> !mirage_block.stensor<1x64x64xbf16>
    %acc = forloop_accum %ev sum : !mirage_block.stensor<1x64x64xbf16> -> !mirage_block.stensor<1x64x64xbf16>
    %den = forloop_accum %e sum_last : !mirage_block.stensor<1x64x32xbf16> -> !mirage_block.stensor<1x64x1xbf16>
    %oa = output_saver %acc omap <x = 0, y = 2, z = 1> : !mirage_block.stensor<1x64x64xbf16> -> tensor<16x256x1024xbf16>
    %od = output_saver %den omap <x = 0, y = 2, z = 1> : !mirage_block.stensor<1x64x1xbf16> -> tensor<16x256x16xbf16>
    yield %oa, %od : tensor<16x256x1024xbf16>, tensor<16x256x16xbf16>
  }
  %O = mirage_kernel.graph_def(%Pg = %parts : tensor<16x256x1024xbf16>, %Dg = %dens : tensor<16x256x16xbf16>)
      -> tensor<16x256x64xbf16> grid [16, 32, 1] block [128, 1, 1] forloop 1 {
    %pt = input_loader %Pg imap <x = 0, y = 1> : tensor<16x256x1024xbf16> -> !mirage_block.stensor<1x8x1024xbf16>
    %dt = input_loader %Dg imap <x = 0, y = 1> : tensor<16x256x16xbf16> -> !mirage_block.stensor<1x8x16xbf16>
    %num = reduction %pt dim 2 size 64 : !mirage_block.stensor<1x8x1024xbf16> -> !mirage_block.stensor<1x8x64xbf16>
    %sum = reduction %dt dim 2 : !mirage_block.stensor<1x8x16xbf16> -> !mirage_block.stensor<1x8x1xbf16>
    %y = div %num, %sum : !mirage_block.stensor<1x8x64xbf16>, !mirage_block.stensor<1x8x1xbf16> -> !mirage_block.stensor<1x8x64xbf16>
    %ot = output_saver %y omap <x = 0, y = 1> : !mirage_block.stensor<1x8x64xbf16> -> tensor<16x256x64xbf16>
    yield %ot : tensor<16x256x64xbf16>
  }
  return %O : tensor<16x256x64xbf16>
}
