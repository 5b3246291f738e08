// RUN: mirage-opt %s --split-input-file --verify-diagnostics --convert-mirage-block-to-gpu=chip=sm_90a

// The generated kernel rescales a running maximum's sums as the maximum
// rises, exact only for sums linear in exp of the shifted value: anything
// else that the shift reaches is refused.

func.func @squared(%q: tensor<2x16x64xf16>, %k: tensor<2x64x1024xf16>, %v: tensor<2x1024x64xf16>) -> tensor<2x16x64xf16> {
  %o = mirage_kernel.graph_def(%Q = %q : tensor<2x16x64xf16>, %K = %k : tensor<2x64x1024xf16>, %V = %v : tensor<2x1024x64xf16>) -> tensor<2x16x64xf16> grid [2, 1, 1] block [128, 1, 1] forloop 16 {
    %qt = input_loader %Q imap <x = 0> : tensor<2x16x64xf16> -> !mirage_block.stensor<1x16x64xf16>
    %kt = input_loader %K imap <x = 0> fmap 2 : tensor<2x64x1024xf16> -> !mirage_block.stensor<1x64x64xf16>
    %vt = input_loader %V imap <x = 0> fmap 1 : tensor<2x1024x64xf16> -> !mirage_block.stensor<1x64x64xf16>
    %s = matmul %qt, %kt : !mirage_block.stensor<1x16x64xf16>, !mirage_block.stensor<1x64x64xf16> -> !mirage_block.stensor<1x16x64xf16>
    %t = mul_scalar %s by 0.125 : !mirage_block.stensor<1x16x64xf16>
    %r = reduction_max %t dim 2 : !mirage_block.stensor<1x16x64xf16> -> !mirage_block.stensor<1x16x1xf16>
    %m = forloop_accum %r max : !mirage_block.stensor<1x16x1xf16> -> !mirage_block.stensor<1x16x1xf16>
    %d = sub %t, %m : !mirage_block.stensor<1x16x64xf16>, !mirage_block.stensor<1x16x1xf16> -> !mirage_block.stensor<1x16x64xf16>
    %e = exp %d : !mirage_block.stensor<1x16x64xf16>
    // expected-error @below {{uses a value shifted by a running maximum in a way the maximum's rescaling cannot follow}}
    %e2 = mul %e, %e : !mirage_block.stensor<1x16x64xf16>, !mirage_block.stensor<1x16x64xf16> -> !mirage_block.stensor<1x16x64xf16>
    %ev = matmul %e2, %vt : !mirage_block.stensor<1x16x64xf16>, !mirage_block.stensor<1x64x64xf16> -> !mirage_block.stensor<1x16x64xf16>
    %acc = forloop_accum %ev sum : !mirage_block.stensor<1x16x64xf16> -> !mirage_block.stensor<1x16x64xf16>
    %ot = output_saver %acc omap <x = 0> : !mirage_block.stensor<1x16x64xf16> -> tensor<2x16x64xf16>
    yield %ot : tensor<2x16x64xf16>
  }
  return %o : tensor<2x16x64xf16>
}

// -----

func.func @not_exp(%q: tensor<2x16x64xf16>, %k: tensor<2x64x1024xf16>, %v: tensor<2x1024x64xf16>) -> tensor<2x16x64xf16> {
  %o = mirage_kernel.graph_def(%Q = %q : tensor<2x16x64xf16>, %K = %k : tensor<2x64x1024xf16>, %V = %v : tensor<2x1024x64xf16>) -> tensor<2x16x64xf16> grid [2, 1, 1] block [128, 1, 1] forloop 16 {
    %qt = input_loader %Q imap <x = 0> : tensor<2x16x64xf16> -> !mirage_block.stensor<1x16x64xf16>
    %kt = input_loader %K imap <x = 0> fmap 2 : tensor<2x64x1024xf16> -> !mirage_block.stensor<1x64x64xf16>
    %vt = input_loader %V imap <x = 0> fmap 1 : tensor<2x1024x64xf16> -> !mirage_block.stensor<1x64x64xf16>
    %s = matmul %qt, %kt : !mirage_block.stensor<1x16x64xf16>, !mirage_block.stensor<1x64x64xf16> -> !mirage_block.stensor<1x16x64xf16>
    %t = mul_scalar %s by 0.125 : !mirage_block.stensor<1x16x64xf16>
    %r = reduction_max %t dim 2 : !mirage_block.stensor<1x16x64xf16> -> !mirage_block.stensor<1x16x1xf16>
    %m = forloop_accum %r max : !mirage_block.stensor<1x16x1xf16> -> !mirage_block.stensor<1x16x1xf16>
    %d = sub %t, %m : !mirage_block.stensor<1x16x64xf16>, !mirage_block.stensor<1x16x1xf16> -> !mirage_block.stensor<1x16x64xf16>
    // expected-error @below {{reads a value shifted by a running maximum; only exp may}}
    %n = neg %d : !mirage_block.stensor<1x16x64xf16>
    %ev = matmul %n, %vt : !mirage_block.stensor<1x16x64xf16>, !mirage_block.stensor<1x64x64xf16> -> !mirage_block.stensor<1x16x64xf16>
    %acc = forloop_accum %ev sum : !mirage_block.stensor<1x16x64xf16> -> !mirage_block.stensor<1x16x64xf16>
    %ot = output_saver %acc omap <x = 0> : !mirage_block.stensor<1x16x64xf16> -> tensor<2x16x64xf16>
    yield %ot : tensor<2x16x64xf16>
  }
  return %o : tensor<2x16x64xf16>
}

// -----

func.func @max_of_exp(%q: tensor<2x16x64xf16>, %k: tensor<2x64x1024xf16>, %v: tensor<2x1024x64xf16>) -> tensor<2x16x64xf16> {
  %o = mirage_kernel.graph_def(%Q = %q : tensor<2x16x64xf16>, %K = %k : tensor<2x64x1024xf16>, %V = %v : tensor<2x1024x64xf16>) -> tensor<2x16x64xf16> grid [2, 1, 1] block [128, 1, 1] forloop 16 {
    %qt = input_loader %Q imap <x = 0> : tensor<2x16x64xf16> -> !mirage_block.stensor<1x16x64xf16>
    %kt = input_loader %K imap <x = 0> fmap 2 : tensor<2x64x1024xf16> -> !mirage_block.stensor<1x64x64xf16>
    %vt = input_loader %V imap <x = 0> fmap 1 : tensor<2x1024x64xf16> -> !mirage_block.stensor<1x64x64xf16>
    %s = matmul %qt, %kt : !mirage_block.stensor<1x16x64xf16>, !mirage_block.stensor<1x64x64xf16> -> !mirage_block.stensor<1x16x64xf16>
    %t = mul_scalar %s by 0.125 : !mirage_block.stensor<1x16x64xf16>
    %r = reduction_max %t dim 2 : !mirage_block.stensor<1x16x64xf16> -> !mirage_block.stensor<1x16x1xf16>
    %m = forloop_accum %r max : !mirage_block.stensor<1x16x1xf16> -> !mirage_block.stensor<1x16x1xf16>
    %d = sub %t, %m : !mirage_block.stensor<1x16x64xf16>, !mirage_block.stensor<1x16x1xf16> -> !mirage_block.stensor<1x16x64xf16>
    %e = exp %d : !mirage_block.stensor<1x16x64xf16>
    // expected-error @below {{uses a value shifted by a running maximum in a way the maximum's rescaling cannot follow}}
    %x = reduction_max %e dim 2 : !mirage_block.stensor<1x16x64xf16> -> !mirage_block.stensor<1x16x1xf16>
    %mx = forloop_accum %x max : !mirage_block.stensor<1x16x1xf16> -> !mirage_block.stensor<1x16x1xf16>
    %ev = matmul %e, %vt : !mirage_block.stensor<1x16x64xf16>, !mirage_block.stensor<1x64x64xf16> -> !mirage_block.stensor<1x16x64xf16>
    %acc = forloop_accum %ev sum : !mirage_block.stensor<1x16x64xf16> -> !mirage_block.stensor<1x16x64xf16>
    %y = div %acc, %mx : !mirage_block.stensor<1x16x64xf16>, !mirage_block.stensor<1x16x1xf16> -> !mirage_block.stensor<1x16x64xf16>
    %ot = output_saver %y omap <x = 0> : !mirage_block.stensor<1x16x64xf16> -> tensor<2x16x64xf16>
    yield %ot : tensor<2x16x64xf16>
  }
  return %o : tensor<2x16x64xf16>
}

// -----

// A sum across rows mixes rows of different factors: the shifted value as a
// matmul's rhs.
func.func @shifted_rhs(%q: tensor<2x16x64xf16>, %k: tensor<2x64x1024xf16>, %w: tensor<2x16x16xf16>) -> tensor<2x16x64xf16> {
  %o = mirage_kernel.graph_def(%Q = %q : tensor<2x16x64xf16>, %K = %k : tensor<2x64x1024xf16>, %W = %w : tensor<2x16x16xf16>) -> tensor<2x16x64xf16> grid [2, 1, 1] block [128, 1, 1] forloop 16 {
    %qt = input_loader %Q imap <x = 0> : tensor<2x16x64xf16> -> !mirage_block.stensor<1x16x64xf16>
    %wt = input_loader %W imap <x = 0> : tensor<2x16x16xf16> -> !mirage_block.stensor<1x16x16xf16>
    %kt = input_loader %K imap <x = 0> fmap 2 : tensor<2x64x1024xf16> -> !mirage_block.stensor<1x64x64xf16>
    %s = matmul %qt, %kt : !mirage_block.stensor<1x16x64xf16>, !mirage_block.stensor<1x64x64xf16> -> !mirage_block.stensor<1x16x64xf16>
    %r = reduction_max %s dim 2 : !mirage_block.stensor<1x16x64xf16> -> !mirage_block.stensor<1x16x1xf16>
    %m = forloop_accum %r max : !mirage_block.stensor<1x16x1xf16> -> !mirage_block.stensor<1x16x1xf16>
    %d = sub %s, %m : !mirage_block.stensor<1x16x64xf16>, !mirage_block.stensor<1x16x1xf16> -> !mirage_block.stensor<1x16x64xf16>
    %e = exp %d : !mirage_block.stensor<1x16x64xf16>
    // expected-error @below {{uses a value shifted by a running maximum in a way the maximum's rescaling cannot follow}}
    %p = matmul %wt, %e : !mirage_block.stensor<1x16x16xf16>, !mirage_block.stensor<1x16x64xf16> -> !mirage_block.stensor<1x16x64xf16>
    %acc = forloop_accum %p sum : !mirage_block.stensor<1x16x64xf16> -> !mirage_block.stensor<1x16x64xf16>
    %ot = output_saver %acc omap <x = 0> : !mirage_block.stensor<1x16x64xf16> -> tensor<2x16x64xf16>
    yield %ot : tensor<2x16x64xf16>
  }
  return %o : tensor<2x16x64xf16>
}
