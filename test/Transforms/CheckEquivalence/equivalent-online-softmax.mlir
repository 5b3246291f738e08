// RUN: mirage-opt %s --mirage-check-equivalence -verify-diagnostics -o /dev/null

// Online softmax: a running maximum (a forloop_accum max that a sub reads in
// the loop) is the maximum over all iterations in every iteration, so the
// interpreter runs what it accumulates in a first pass over the loop. The
// field verifier proves both online forms of real (scaled, max-subtracted)
// attention equal to the reference -- FlashAttention's one kernel, and
// FlashDecoding's split whose combining kernel rescales each part by
// exp(m_part - max) -- and rejects the split whose combining kernel adds
// the parts without rescaling them (each part's sums are relative to its
// own maximum).

func.func @ref(%q: tensor<2x16x32xf32>, %k: tensor<2x32x256xf32>, %v: tensor<2x256x32xf32>) -> tensor<2x16x32xf32> attributes {mirage.reference} {
  %s = mirage_kernel.matmul %q, %k : tensor<2x16x32xf32>, tensor<2x32x256xf32> -> tensor<2x16x256xf32>
  %t = mirage_kernel.mul_scalar %s by 0.125 : tensor<2x16x256xf32>
  %m = mirage_kernel.reduction_max %t dim 2 : tensor<2x16x256xf32> -> tensor<2x16x1xf32>
  %d = mirage_kernel.sub %t, %m : tensor<2x16x256xf32>, tensor<2x16x1xf32> -> tensor<2x16x256xf32>
  %e = mirage_kernel.exp %d : tensor<2x16x256xf32>
  %r = mirage_kernel.reduction %e dim 2 : tensor<2x16x256xf32> -> tensor<2x16x1xf32>
  %p = mirage_kernel.div %e, %r : tensor<2x16x256xf32>, tensor<2x16x1xf32> -> tensor<2x16x256xf32>
  %o = mirage_kernel.matmul %p, %v : tensor<2x16x256xf32>, tensor<2x256x32xf32> -> tensor<2x16x32xf32>
  return %o : tensor<2x16x32xf32>
}

// expected-remark-re @below {{{{^}}is equivalent to @ref: {{.*}}float64 relative error {{[0-9.]+e-1[5-9]$}}}}
func.func @flash(%q: tensor<2x16x32xf32>, %k: tensor<2x32x256xf32>, %v: tensor<2x256x32xf32>) -> tensor<2x16x32xf32> {
  %o = mirage_kernel.graph_def(%Q = %q : tensor<2x16x32xf32>, %K = %k : tensor<2x32x256xf32>, %V = %v : tensor<2x256x32xf32>) -> tensor<2x16x32xf32> grid [2, 1, 1] block [128, 1, 1] forloop 4 {
    %qt = input_loader %Q imap <x = 0> : tensor<2x16x32xf32> -> !mirage_block.stensor<1x16x32xf32>
    %kt = input_loader %K imap <x = 0> fmap 2 : tensor<2x32x256xf32> -> !mirage_block.stensor<1x32x64xf32>
    %vt = input_loader %V imap <x = 0> fmap 1 : tensor<2x256x32xf32> -> !mirage_block.stensor<1x64x32xf32>
    %s = matmul %qt, %kt : !mirage_block.stensor<1x16x32xf32>, !mirage_block.stensor<1x32x64xf32> -> !mirage_block.stensor<1x16x64xf32>
    %t = mul_scalar %s by 0.125 : !mirage_block.stensor<1x16x64xf32>
    %r = reduction_max %t dim 2 : !mirage_block.stensor<1x16x64xf32> -> !mirage_block.stensor<1x16x1xf32>
    %m = forloop_accum %r max : !mirage_block.stensor<1x16x1xf32> -> !mirage_block.stensor<1x16x1xf32>
    %d = sub %t, %m : !mirage_block.stensor<1x16x64xf32>, !mirage_block.stensor<1x16x1xf32> -> !mirage_block.stensor<1x16x64xf32>
    %e = exp %d : !mirage_block.stensor<1x16x64xf32>
    %ev = matmul %e, %vt : !mirage_block.stensor<1x16x64xf32>, !mirage_block.stensor<1x64x32xf32> -> !mirage_block.stensor<1x16x32xf32>
    %acc = forloop_accum %ev sum : !mirage_block.stensor<1x16x32xf32> -> !mirage_block.stensor<1x16x32xf32>
    %l = forloop_accum %e sum_last : !mirage_block.stensor<1x16x64xf32> -> !mirage_block.stensor<1x16x1xf32>
    %y = div %acc, %l : !mirage_block.stensor<1x16x32xf32>, !mirage_block.stensor<1x16x1xf32> -> !mirage_block.stensor<1x16x32xf32>
    %ot = output_saver %y omap <x = 0> : !mirage_block.stensor<1x16x32xf32> -> tensor<2x16x32xf32>
    yield %ot : tensor<2x16x32xf32>
  }
  return %o : tensor<2x16x32xf32>
}

// expected-remark-re @below {{{{^}}is equivalent to @ref: {{.*}}float64 relative error {{[0-9.]+e-1[5-9]$}}}}
func.func @split(%q: tensor<2x16x32xf32>, %k: tensor<2x32x256xf32>, %v: tensor<2x256x32xf32>) -> tensor<2x16x32xf32> {
  %parts, %dens, %maxs = mirage_kernel.graph_def(%Q = %q : tensor<2x16x32xf32>, %K = %k : tensor<2x32x256xf32>, %V = %v : tensor<2x256x32xf32>)
      -> (tensor<2x16x128xf32>, tensor<2x16x4xf32>, tensor<2x16x4xf32>) grid [2, 4, 1] block [128, 1, 1] forloop 2 {
    %qt = input_loader %Q imap <x = 0> : tensor<2x16x32xf32> -> !mirage_block.stensor<1x16x32xf32>
    %kt = input_loader %K imap <x = 0, y = 2> fmap 2 : tensor<2x32x256xf32> -> !mirage_block.stensor<1x32x32xf32>
    %vt = input_loader %V imap <x = 0, y = 1> fmap 1 : tensor<2x256x32xf32> -> !mirage_block.stensor<1x32x32xf32>
    %s = matmul %qt, %kt : !mirage_block.stensor<1x16x32xf32>, !mirage_block.stensor<1x32x32xf32> -> !mirage_block.stensor<1x16x32xf32>
    %t = mul_scalar %s by 0.125 : !mirage_block.stensor<1x16x32xf32>
    %r = reduction_max %t dim 2 : !mirage_block.stensor<1x16x32xf32> -> !mirage_block.stensor<1x16x1xf32>
    %m = forloop_accum %r max : !mirage_block.stensor<1x16x1xf32> -> !mirage_block.stensor<1x16x1xf32>
    %d = sub %t, %m : !mirage_block.stensor<1x16x32xf32>, !mirage_block.stensor<1x16x1xf32> -> !mirage_block.stensor<1x16x32xf32>
    %e = exp %d : !mirage_block.stensor<1x16x32xf32>
    %ev = matmul %e, %vt : !mirage_block.stensor<1x16x32xf32>, !mirage_block.stensor<1x32x32xf32> -> !mirage_block.stensor<1x16x32xf32>
    %acc = forloop_accum %ev sum : !mirage_block.stensor<1x16x32xf32> -> !mirage_block.stensor<1x16x32xf32>
    %l = forloop_accum %e sum_last : !mirage_block.stensor<1x16x32xf32> -> !mirage_block.stensor<1x16x1xf32>
    %o1 = output_saver %acc omap <x = 0, y = 2> : !mirage_block.stensor<1x16x32xf32> -> tensor<2x16x128xf32>
    %o2 = output_saver %l omap <x = 0, y = 2> : !mirage_block.stensor<1x16x1xf32> -> tensor<2x16x4xf32>
    %o3 = output_saver %m omap <x = 0, y = 2> : !mirage_block.stensor<1x16x1xf32> -> tensor<2x16x4xf32>
    yield %o1, %o2, %o3 : tensor<2x16x128xf32>, tensor<2x16x4xf32>, tensor<2x16x4xf32>
  }
  %o = mirage_kernel.graph_def(%Pg = %parts : tensor<2x16x128xf32>, %L = %dens : tensor<2x16x4xf32>, %M = %maxs : tensor<2x16x4xf32>)
      -> tensor<2x16x32xf32> grid [2, 1, 1] block [128, 1, 1] forloop 4 {
    %pt = input_loader %Pg imap <x = 0> fmap 2 : tensor<2x16x128xf32> -> !mirage_block.stensor<1x16x32xf32>
    %lt = input_loader %L imap <x = 0> fmap 2 : tensor<2x16x4xf32> -> !mirage_block.stensor<1x16x1xf32>
    %mt = input_loader %M imap <x = 0> fmap 2 : tensor<2x16x4xf32> -> !mirage_block.stensor<1x16x1xf32>
    %ma = input_loader %M imap <x = 0> : tensor<2x16x4xf32> -> !mirage_block.stensor<1x16x4xf32>
    %mx = reduction_max %ma dim 2 : !mirage_block.stensor<1x16x4xf32> -> !mirage_block.stensor<1x16x1xf32>
    %dm = sub %mt, %mx : !mirage_block.stensor<1x16x1xf32>, !mirage_block.stensor<1x16x1xf32> -> !mirage_block.stensor<1x16x1xf32>
    %w = exp %dm : !mirage_block.stensor<1x16x1xf32>
    %pw = mul %pt, %w : !mirage_block.stensor<1x16x32xf32>, !mirage_block.stensor<1x16x1xf32> -> !mirage_block.stensor<1x16x32xf32>
    %lw = mul %lt, %w : !mirage_block.stensor<1x16x1xf32>, !mirage_block.stensor<1x16x1xf32> -> !mirage_block.stensor<1x16x1xf32>
    %num = forloop_accum %pw sum : !mirage_block.stensor<1x16x32xf32> -> !mirage_block.stensor<1x16x32xf32>
    %den = forloop_accum %lw sum : !mirage_block.stensor<1x16x1xf32> -> !mirage_block.stensor<1x16x1xf32>
    %y = div %num, %den : !mirage_block.stensor<1x16x32xf32>, !mirage_block.stensor<1x16x1xf32> -> !mirage_block.stensor<1x16x32xf32>
    %ot = output_saver %y omap <x = 0> : !mirage_block.stensor<1x16x32xf32> -> tensor<2x16x32xf32>
    yield %ot : tensor<2x16x32xf32>
  }
  return %o : tensor<2x16x32xf32>
}

// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @unscaled(%q: tensor<2x16x32xf32>, %k: tensor<2x32x256xf32>, %v: tensor<2x256x32xf32>) -> tensor<2x16x32xf32> {
  %parts, %dens, %maxs = mirage_kernel.graph_def(%Q = %q : tensor<2x16x32xf32>, %K = %k : tensor<2x32x256xf32>, %V = %v : tensor<2x256x32xf32>)
      -> (tensor<2x16x128xf32>, tensor<2x16x4xf32>, tensor<2x16x4xf32>) grid [2, 4, 1] block [128, 1, 1] forloop 2 {
    %qt = input_loader %Q imap <x = 0> : tensor<2x16x32xf32> -> !mirage_block.stensor<1x16x32xf32>
    %kt = input_loader %K imap <x = 0, y = 2> fmap 2 : tensor<2x32x256xf32> -> !mirage_block.stensor<1x32x32xf32>
    %vt = input_loader %V imap <x = 0, y = 1> fmap 1 : tensor<2x256x32xf32> -> !mirage_block.stensor<1x32x32xf32>
    %s = matmul %qt, %kt : !mirage_block.stensor<1x16x32xf32>, !mirage_block.stensor<1x32x32xf32> -> !mirage_block.stensor<1x16x32xf32>
    %t = mul_scalar %s by 0.125 : !mirage_block.stensor<1x16x32xf32>
    %r = reduction_max %t dim 2 : !mirage_block.stensor<1x16x32xf32> -> !mirage_block.stensor<1x16x1xf32>
    %m = forloop_accum %r max : !mirage_block.stensor<1x16x1xf32> -> !mirage_block.stensor<1x16x1xf32>
    %d = sub %t, %m : !mirage_block.stensor<1x16x32xf32>, !mirage_block.stensor<1x16x1xf32> -> !mirage_block.stensor<1x16x32xf32>
    %e = exp %d : !mirage_block.stensor<1x16x32xf32>
    %ev = matmul %e, %vt : !mirage_block.stensor<1x16x32xf32>, !mirage_block.stensor<1x32x32xf32> -> !mirage_block.stensor<1x16x32xf32>
    %acc = forloop_accum %ev sum : !mirage_block.stensor<1x16x32xf32> -> !mirage_block.stensor<1x16x32xf32>
    %l = forloop_accum %e sum_last : !mirage_block.stensor<1x16x32xf32> -> !mirage_block.stensor<1x16x1xf32>
    %o1 = output_saver %acc omap <x = 0, y = 2> : !mirage_block.stensor<1x16x32xf32> -> tensor<2x16x128xf32>
    %o2 = output_saver %l omap <x = 0, y = 2> : !mirage_block.stensor<1x16x1xf32> -> tensor<2x16x4xf32>
    %o3 = output_saver %m omap <x = 0, y = 2> : !mirage_block.stensor<1x16x1xf32> -> tensor<2x16x4xf32>
    yield %o1, %o2, %o3 : tensor<2x16x128xf32>, tensor<2x16x4xf32>, tensor<2x16x4xf32>
  }
  %o = mirage_kernel.graph_def(%Pg = %parts : tensor<2x16x128xf32>, %L = %dens : tensor<2x16x4xf32>, %M = %maxs : tensor<2x16x4xf32>)
      -> tensor<2x16x32xf32> grid [2, 1, 1] block [128, 1, 1] forloop 4 {
    %pt = input_loader %Pg imap <x = 0> fmap 2 : tensor<2x16x128xf32> -> !mirage_block.stensor<1x16x32xf32>
    %lt = input_loader %L imap <x = 0> fmap 2 : tensor<2x16x4xf32> -> !mirage_block.stensor<1x16x1xf32>
    %pw = mul_scalar %pt by 1.0 : !mirage_block.stensor<1x16x32xf32>
    %lw = mul_scalar %lt by 1.0 : !mirage_block.stensor<1x16x1xf32>
    %num = forloop_accum %pw sum : !mirage_block.stensor<1x16x32xf32> -> !mirage_block.stensor<1x16x32xf32>
    %den = forloop_accum %lw sum : !mirage_block.stensor<1x16x1xf32> -> !mirage_block.stensor<1x16x1xf32>
    %y = div %num, %den : !mirage_block.stensor<1x16x32xf32>, !mirage_block.stensor<1x16x1xf32> -> !mirage_block.stensor<1x16x32xf32>
    %ot = output_saver %y omap <x = 0> : !mirage_block.stensor<1x16x32xf32> -> tensor<2x16x32xf32>
    yield %ot : tensor<2x16x32xf32>
  }
  return %o : tensor<2x16x32xf32>
}
