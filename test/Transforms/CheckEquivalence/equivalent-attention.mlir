// RUN: mirage-opt %s --mirage-check-equivalence -verify-diagnostics -o /dev/null
// RUN: mirage-opt %s --mirage-check-equivalence='seed=987654321 trials=3' -verify-diagnostics -o /dev/null

// Attention without max-subtraction (examples/mugraphs/gqa_splitkv_bs1.mlir,
// small): Q 2x16x8, K 2x8x64, V 2x64x8, f16.
//   E = exp(matmul(Q, K));  O = matmul(div(E, reduction(E, dim 2)), V)

func.func @ref(%q: tensor<2x16x8xf16>, %k: tensor<2x8x64xf16>, %v: tensor<2x64x8xf16>) -> tensor<2x16x8xf16>
    attributes {mirage.reference} {
  %s = mirage_kernel.matmul %q, %k : tensor<2x16x8xf16>, tensor<2x8x64xf16> -> tensor<2x16x64xf16>
  %e = mirage_kernel.exp %s : tensor<2x16x64xf16>
  %d = mirage_kernel.reduction %e dim 2 : tensor<2x16x64xf16> -> tensor<2x16x1xf16>
  %p = mirage_kernel.div %e, %d : tensor<2x16x64xf16>, tensor<2x16x1xf16> -> tensor<2x16x64xf16>
  %o = mirage_kernel.matmul %p, %v : tensor<2x16x64xf16>, tensor<2x64x8xf16> -> tensor<2x16x8xf16>
  return %o : tensor<2x16x8xf16>
}

// Kernel level: divide after the second matmul.
// expected-remark @below {{is equivalent to @ref}}
func.func @divide_after_matmul(%q: tensor<2x16x8xf16>, %k: tensor<2x8x64xf16>, %v: tensor<2x64x8xf16>) -> tensor<2x16x8xf16> {
  %s = mirage_kernel.matmul %q, %k : tensor<2x16x8xf16>, tensor<2x8x64xf16> -> tensor<2x16x64xf16>
  %e = mirage_kernel.exp %s : tensor<2x16x64xf16>
  %ev = mirage_kernel.matmul %e, %v : tensor<2x16x64xf16>, tensor<2x64x8xf16> -> tensor<2x16x8xf16>
  %d = mirage_kernel.reduction %e dim 2 : tensor<2x16x64xf16> -> tensor<2x16x1xf16>
  %o = mirage_kernel.div %ev, %d : tensor<2x16x8xf16>, tensor<2x16x1xf16> -> tensor<2x16x8xf16>
  return %o : tensor<2x16x8xf16>
}

// Two-kernel split-KV ("FlashDecoding"). Kernel 1, grid [2, 4, 1], forloop 2:
// block (x, y) takes head x and keys [16y, 16y+16), 8 per iteration, and
// writes its partial numerator at parts[x, :, 8y : 8y+8] and its partial
// denominator at dens[x, :, y]. Kernel 2, grid [2, 2, 1]: block (x, y) takes
// head x, rows [8y, 8y+8), sums the 4 partials with the strided reduction
// (parts dim 2 size 8) and the denominators, and divides.
// expected-remark @below {{is equivalent to @ref}}
func.func @split_kv(%q: tensor<2x16x8xf16>, %k: tensor<2x8x64xf16>, %v: tensor<2x64x8xf16>) -> tensor<2x16x8xf16> {
  %parts, %dens = mirage_kernel.graph_def(%Qg = %q : tensor<2x16x8xf16>, %Kg = %k : tensor<2x8x64xf16>,
                                          %Vg = %v : tensor<2x64x8xf16>)
      -> (tensor<2x16x32xf16>, tensor<2x16x4xf16>) grid [2, 4, 1] block [128, 1, 1] forloop 2 {
    %qt = input_loader %Qg imap <x = 0> : tensor<2x16x8xf16> -> !mirage_block.stensor<1x16x8xf16>
    %kt = input_loader %Kg imap <x = 0, y = 2> fmap 2 : tensor<2x8x64xf16> -> !mirage_block.stensor<1x8x8xf16>
    %vt = input_loader %Vg imap <x = 0, y = 1> fmap 1 : tensor<2x64x8xf16> -> !mirage_block.stensor<1x8x8xf16>
    %s = matmul %qt, %kt : !mirage_block.stensor<1x16x8xf16>, !mirage_block.stensor<1x8x8xf16> -> !mirage_block.stensor<1x16x8xf16>
    %e = exp %s : !mirage_block.stensor<1x16x8xf16>
    %ev = matmul %e, %vt : !mirage_block.stensor<1x16x8xf16>, !mirage_block.stensor<1x8x8xf16> -> !mirage_block.stensor<1x16x8xf16>
    %acc = forloop_accum %ev sum : !mirage_block.stensor<1x16x8xf16> -> !mirage_block.stensor<1x16x8xf16>
    %den = forloop_accum %e sum_last : !mirage_block.stensor<1x16x8xf16> -> !mirage_block.stensor<1x16x1xf16>
    %oa = output_saver %acc omap <x = 0, y = 2> : !mirage_block.stensor<1x16x8xf16> -> tensor<2x16x32xf16>
    %od = output_saver %den omap <x = 0, y = 2> : !mirage_block.stensor<1x16x1xf16> -> tensor<2x16x4xf16>
    yield %oa, %od : tensor<2x16x32xf16>, tensor<2x16x4xf16>
  }
  %o = mirage_kernel.graph_def(%Pg = %parts : tensor<2x16x32xf16>, %Dg = %dens : tensor<2x16x4xf16>)
      -> tensor<2x16x8xf16> grid [2, 2, 1] block [128, 1, 1] forloop 1 {
    %pt = input_loader %Pg imap <x = 0, y = 1> : tensor<2x16x32xf16> -> !mirage_block.stensor<1x8x32xf16>
    %dt = input_loader %Dg imap <x = 0, y = 1> : tensor<2x16x4xf16> -> !mirage_block.stensor<1x8x4xf16>
    %num = reduction %pt dim 2 size 8 : !mirage_block.stensor<1x8x32xf16> -> !mirage_block.stensor<1x8x8xf16>
    %sum = reduction %dt dim 2 : !mirage_block.stensor<1x8x4xf16> -> !mirage_block.stensor<1x8x1xf16>
    %y = div %num, %sum : !mirage_block.stensor<1x8x8xf16>, !mirage_block.stensor<1x8x1xf16> -> !mirage_block.stensor<1x8x8xf16>
    %ot = output_saver %y omap <x = 0, y = 1> : !mirage_block.stensor<1x8x8xf16> -> tensor<2x16x8xf16>
    yield %ot : tensor<2x16x8xf16>
  }
  return %o : tensor<2x16x8xf16>
}

// Split-KV with the combination at kernel level (strided reduction of the
// partials to size 8, sum of the denominators, div).
// expected-remark @below {{is equivalent to @ref}}
func.func @split_kv_kernel_combine(%q: tensor<2x16x8xf16>, %k: tensor<2x8x64xf16>, %v: tensor<2x64x8xf16>) -> tensor<2x16x8xf16> {
  %parts, %dens = mirage_kernel.graph_def(%Qg = %q : tensor<2x16x8xf16>, %Kg = %k : tensor<2x8x64xf16>,
                                          %Vg = %v : tensor<2x64x8xf16>)
      -> (tensor<2x16x32xf16>, tensor<2x16x4xf16>) grid [2, 4, 1] block [128, 1, 1] forloop 2 {
    %qt = input_loader %Qg imap <x = 0> : tensor<2x16x8xf16> -> !mirage_block.stensor<1x16x8xf16>
    %kt = input_loader %Kg imap <x = 0, y = 2> fmap 2 : tensor<2x8x64xf16> -> !mirage_block.stensor<1x8x8xf16>
    %vt = input_loader %Vg imap <x = 0, y = 1> fmap 1 : tensor<2x64x8xf16> -> !mirage_block.stensor<1x8x8xf16>
    %s = matmul %qt, %kt : !mirage_block.stensor<1x16x8xf16>, !mirage_block.stensor<1x8x8xf16> -> !mirage_block.stensor<1x16x8xf16>
    %e = exp %s : !mirage_block.stensor<1x16x8xf16>
    %ev = matmul %e, %vt : !mirage_block.stensor<1x16x8xf16>, !mirage_block.stensor<1x8x8xf16> -> !mirage_block.stensor<1x16x8xf16>
    %acc = forloop_accum %ev sum : !mirage_block.stensor<1x16x8xf16> -> !mirage_block.stensor<1x16x8xf16>
    %den = forloop_accum %e sum_last : !mirage_block.stensor<1x16x8xf16> -> !mirage_block.stensor<1x16x1xf16>
    %oa = output_saver %acc omap <x = 0, y = 2> : !mirage_block.stensor<1x16x8xf16> -> tensor<2x16x32xf16>
    %od = output_saver %den omap <x = 0, y = 2> : !mirage_block.stensor<1x16x1xf16> -> tensor<2x16x4xf16>
    yield %oa, %od : tensor<2x16x32xf16>, tensor<2x16x4xf16>
  }
  %num = mirage_kernel.reduction %parts dim 2 size 8 : tensor<2x16x32xf16> -> tensor<2x16x8xf16>
  %sum = mirage_kernel.reduction %dens dim 2 : tensor<2x16x4xf16> -> tensor<2x16x1xf16>
  %o = mirage_kernel.div %num, %sum : tensor<2x16x8xf16>, tensor<2x16x1xf16> -> tensor<2x16x8xf16>
  return %o : tensor<2x16x8xf16>
}

// Single kernel: block (x, y) takes head x and query rows [8y, 8y+8) and
// loops over all 64 keys in 4 chunks of 16.
// expected-remark @below {{is equivalent to @ref}}
func.func @single_kernel_loop_over_kv(%q: tensor<2x16x8xf16>, %k: tensor<2x8x64xf16>, %v: tensor<2x64x8xf16>) -> tensor<2x16x8xf16> {
  %o = mirage_kernel.graph_def(%Qg = %q : tensor<2x16x8xf16>, %Kg = %k : tensor<2x8x64xf16>,
                               %Vg = %v : tensor<2x64x8xf16>)
      -> tensor<2x16x8xf16> grid [2, 2, 1] block [128, 1, 1] forloop 4 {
    %qt = input_loader %Qg imap <x = 0, y = 1> : tensor<2x16x8xf16> -> !mirage_block.stensor<1x8x8xf16>
    %kt = input_loader %Kg imap <x = 0> fmap 2 : tensor<2x8x64xf16> -> !mirage_block.stensor<1x8x16xf16>
    %vt = input_loader %Vg imap <x = 0> fmap 1 : tensor<2x64x8xf16> -> !mirage_block.stensor<1x16x8xf16>
    %s = matmul %qt, %kt : !mirage_block.stensor<1x8x8xf16>, !mirage_block.stensor<1x8x16xf16> -> !mirage_block.stensor<1x8x16xf16>
    %e = exp %s : !mirage_block.stensor<1x8x16xf16>
    %ev = matmul %e, %vt : !mirage_block.stensor<1x8x16xf16>, !mirage_block.stensor<1x16x8xf16> -> !mirage_block.stensor<1x8x8xf16>
    %acc = forloop_accum %ev sum : !mirage_block.stensor<1x8x8xf16> -> !mirage_block.stensor<1x8x8xf16>
    %den = forloop_accum %e sum_last : !mirage_block.stensor<1x8x16xf16> -> !mirage_block.stensor<1x8x1xf16>
    %y = div %acc, %den : !mirage_block.stensor<1x8x8xf16>, !mirage_block.stensor<1x8x1xf16> -> !mirage_block.stensor<1x8x8xf16>
    %ot = output_saver %y omap <x = 0, y = 1> : !mirage_block.stensor<1x8x8xf16> -> tensor<2x16x8xf16>
    yield %ot : tensor<2x16x8xf16>
  }
  return %o : tensor<2x16x8xf16>
}
