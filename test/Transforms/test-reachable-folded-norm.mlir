// mirage-test-reachable on the one-kernel RMSNorm + gated projections: two
// matmul sums and the norm's rms_last accumulator. The accumulator budget is
// two, and one rms_last besides them, so the search generates it (with a
// budget of two in all it was unreachable: "graph_def 0 has 3
// accumulators").
// RUN: mirage-opt %s --mirage-test-reachable='reference=norm_gated time-limit=30' -verify-diagnostics -o /dev/null
// The candidate computes the reference:
// RUN: mirage-opt %s --mirage-check-equivalence=reference=norm_gated -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQUIV
// EQUIV: remark: is equivalent to @norm_gated

func.func @norm_gated(%X: tensor<1x256xf16>, %W1: tensor<256x512xf16>, %W2: tensor<256x512xf16>) -> tensor<1x512xf16> {
  %N = mirage_kernel.rms_norm %X size 256 : tensor<1x256xf16>
  %G = mirage_kernel.matmul %N, %W1 : tensor<1x256xf16>, tensor<256x512xf16> -> tensor<1x512xf16>
  %A = mirage_kernel.silu %G : tensor<1x512xf16>
  %U = mirage_kernel.matmul %N, %W2 : tensor<1x256xf16>, tensor<256x512xf16> -> tensor<1x512xf16>
  %H = mirage_kernel.mul %A, %U : tensor<1x512xf16>, tensor<1x512xf16> -> tensor<1x512xf16>
  return %H : tensor<1x512xf16>
}

// expected-remark-re @below {{{{^}}reachable{{$}}}}
func.func @folded(%X: tensor<1x256xf16>, %W1: tensor<256x512xf16>, %W2: tensor<256x512xf16>) -> tensor<1x512xf16> {
  %O = mirage_kernel.graph_def(%x = %X : tensor<1x256xf16>, %w1 = %W1 : tensor<256x512xf16>, %w2 = %W2 : tensor<256x512xf16>) -> tensor<1x512xf16> grid [8, 1, 1] block [128, 1, 1] forloop 4 {
    %xt = input_loader %x imap <> fmap 1 : tensor<1x256xf16> -> !mirage_block.stensor<1x64xf16>
    %g = input_loader %w1 imap <x = 1> fmap 0 : tensor<256x512xf16> -> !mirage_block.stensor<64x64xf16>
    %u = input_loader %w2 imap <x = 1> fmap 0 : tensor<256x512xf16> -> !mirage_block.stensor<64x64xf16>
    %xg = matmul %xt, %g : !mirage_block.stensor<1x64xf16>, !mirage_block.stensor<64x64xf16> -> !mirage_block.stensor<1x64xf16>
    %xu = matmul %xt, %u : !mirage_block.stensor<1x64xf16>, !mirage_block.stensor<64x64xf16> -> !mirage_block.stensor<1x64xf16>
    %sg = forloop_accum %xg sum : !mirage_block.stensor<1x64xf16> -> !mirage_block.stensor<1x64xf16>
    %su = forloop_accum %xu sum : !mirage_block.stensor<1x64xf16> -> !mirage_block.stensor<1x64xf16>
    %rms = forloop_accum %xt rms_last : !mirage_block.stensor<1x64xf16> -> !mirage_block.stensor<1x1xf16>
    %gn = div %sg, %rms : !mirage_block.stensor<1x64xf16>, !mirage_block.stensor<1x1xf16> -> !mirage_block.stensor<1x64xf16>
    %a = silu %gn : !mirage_block.stensor<1x64xf16>
    %au = mul %su, %a : !mirage_block.stensor<1x64xf16>, !mirage_block.stensor<1x64xf16> -> !mirage_block.stensor<1x64xf16>
    %y = div %au, %rms : !mirage_block.stensor<1x64xf16>, !mirage_block.stensor<1x1xf16> -> !mirage_block.stensor<1x64xf16>
    %o = output_saver %y omap <x = 1> : !mirage_block.stensor<1x64xf16> -> tensor<1x512xf16>
    yield %o : tensor<1x512xf16>
  }
  return %O : tensor<1x512xf16>
}
