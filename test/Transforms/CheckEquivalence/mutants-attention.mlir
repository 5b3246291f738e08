// RUN: mirage-opt %s --mirage-check-equivalence -verify-diagnostics -o /dev/null
// RUN: mirage-opt %s --mirage-check-equivalence='seed=987654321 trials=3' -verify-diagnostics -o /dev/null
// RUN: not mirage-opt %s --mirage-check-equivalence -o /dev/null 2>/dev/null

// Single-mistake mutants of attention (Q 2x16x8, K 2x8x64, V 2x64x8):
//   O = matmul(div(E, reduction(E, dim 2)), V),  E = exp(matmul(Q, K)).
// Most start from the correct two-kernel split-KV graph of
// equivalent-attention.mlir (@split_kv).

func.func @ref(%q: tensor<2x16x8xf16>, %k: tensor<2x8x64xf16>, %v: tensor<2x64x8xf16>) -> tensor<2x16x8xf16>
    attributes {mirage.reference} {
  %s = mirage_kernel.matmul %q, %k : tensor<2x16x8xf16>, tensor<2x8x64xf16> -> tensor<2x16x64xf16>
  %e = mirage_kernel.exp %s : tensor<2x16x64xf16>
  %d = mirage_kernel.reduction %e dim 2 : tensor<2x16x64xf16> -> tensor<2x16x1xf16>
  %p = mirage_kernel.div %e, %d : tensor<2x16x64xf16>, tensor<2x16x1xf16> -> tensor<2x16x64xf16>
  %o = mirage_kernel.matmul %p, %v : tensor<2x16x64xf16>, tensor<2x64x8xf16> -> tensor<2x16x8xf16>
  return %o : tensor<2x16x8xf16>
}

// Split-KV: the denominator sums S instead of exp(S).
// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @den_without_exp(%q: tensor<2x16x8xf16>, %k: tensor<2x8x64xf16>, %v: tensor<2x64x8xf16>) -> tensor<2x16x8xf16> {
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
    %den = forloop_accum %s sum_last : !mirage_block.stensor<1x16x8xf16> -> !mirage_block.stensor<1x16x1xf16>
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

// Split-KV: the numerator multiplies S instead of exp(S) by V.
// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @num_without_exp(%q: tensor<2x16x8xf16>, %k: tensor<2x8x64xf16>, %v: tensor<2x64x8xf16>) -> tensor<2x16x8xf16> {
  %parts, %dens = mirage_kernel.graph_def(%Qg = %q : tensor<2x16x8xf16>, %Kg = %k : tensor<2x8x64xf16>,
                                          %Vg = %v : tensor<2x64x8xf16>)
      -> (tensor<2x16x32xf16>, tensor<2x16x4xf16>) grid [2, 4, 1] block [128, 1, 1] forloop 2 {
    %qt = input_loader %Qg imap <x = 0> : tensor<2x16x8xf16> -> !mirage_block.stensor<1x16x8xf16>
    %kt = input_loader %Kg imap <x = 0, y = 2> fmap 2 : tensor<2x8x64xf16> -> !mirage_block.stensor<1x8x8xf16>
    %vt = input_loader %Vg imap <x = 0, y = 1> fmap 1 : tensor<2x64x8xf16> -> !mirage_block.stensor<1x8x8xf16>
    %s = matmul %qt, %kt : !mirage_block.stensor<1x16x8xf16>, !mirage_block.stensor<1x8x8xf16> -> !mirage_block.stensor<1x16x8xf16>
    %e = exp %s : !mirage_block.stensor<1x16x8xf16>
    %ev = matmul %s, %vt : !mirage_block.stensor<1x16x8xf16>, !mirage_block.stensor<1x8x8xf16> -> !mirage_block.stensor<1x16x8xf16>
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

// Split-KV: forloop_accum max instead of sum for the numerator.
// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @accum_max_numerator(%q: tensor<2x16x8xf16>, %k: tensor<2x8x64xf16>, %v: tensor<2x64x8xf16>) -> tensor<2x16x8xf16> {
  %parts, %dens = mirage_kernel.graph_def(%Qg = %q : tensor<2x16x8xf16>, %Kg = %k : tensor<2x8x64xf16>,
                                          %Vg = %v : tensor<2x64x8xf16>)
      -> (tensor<2x16x32xf16>, tensor<2x16x4xf16>) grid [2, 4, 1] block [128, 1, 1] forloop 2 {
    %qt = input_loader %Qg imap <x = 0> : tensor<2x16x8xf16> -> !mirage_block.stensor<1x16x8xf16>
    %kt = input_loader %Kg imap <x = 0, y = 2> fmap 2 : tensor<2x8x64xf16> -> !mirage_block.stensor<1x8x8xf16>
    %vt = input_loader %Vg imap <x = 0, y = 1> fmap 1 : tensor<2x64x8xf16> -> !mirage_block.stensor<1x8x8xf16>
    %s = matmul %qt, %kt : !mirage_block.stensor<1x16x8xf16>, !mirage_block.stensor<1x8x8xf16> -> !mirage_block.stensor<1x16x8xf16>
    %e = exp %s : !mirage_block.stensor<1x16x8xf16>
    %ev = matmul %e, %vt : !mirage_block.stensor<1x16x8xf16>, !mirage_block.stensor<1x8x8xf16> -> !mirage_block.stensor<1x16x8xf16>
    %acc = forloop_accum %ev max : !mirage_block.stensor<1x16x8xf16> -> !mirage_block.stensor<1x16x8xf16>
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

// Split-KV: the denominator accumulates the numerator tile E V (sum_last_to 1)
// instead of E.
// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @den_sum_last_to_wrong(%q: tensor<2x16x8xf16>, %k: tensor<2x8x64xf16>, %v: tensor<2x64x8xf16>) -> tensor<2x16x8xf16> {
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
    %den = forloop_accum %ev sum_last_to 1 : !mirage_block.stensor<1x16x8xf16> -> !mirage_block.stensor<1x16x1xf16>
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

// Split-KV kernel 2: sum / num instead of num / sum.
// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @swapped_div(%q: tensor<2x16x8xf16>, %k: tensor<2x8x64xf16>, %v: tensor<2x64x8xf16>) -> tensor<2x16x8xf16> {
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
    %y = div %sum, %num : !mirage_block.stensor<1x8x1xf16>, !mirage_block.stensor<1x8x8xf16> -> !mirage_block.stensor<1x8x8xf16>
    %ot = output_saver %y omap <x = 0, y = 1> : !mirage_block.stensor<1x8x8xf16> -> tensor<2x16x8xf16>
    yield %ot : tensor<2x16x8xf16>
  }
  return %o : tensor<2x16x8xf16>
}

// Split-KV kernel 2: the denominators are read with the grid axes
// exchanged (imap <x = 1, y = 0>: head y, rows of x), same 1x8x4 tile.
// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @dens_transposed_grid(%q: tensor<2x16x8xf16>, %k: tensor<2x8x64xf16>, %v: tensor<2x64x8xf16>) -> tensor<2x16x8xf16> {
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
    %dt = input_loader %Dg imap <x = 1, y = 0> : tensor<2x16x4xf16> -> !mirage_block.stensor<1x8x4xf16>
    %num = reduction %pt dim 2 size 8 : !mirage_block.stensor<1x8x32xf16> -> !mirage_block.stensor<1x8x8xf16>
    %sum = reduction %dt dim 2 : !mirage_block.stensor<1x8x4xf16> -> !mirage_block.stensor<1x8x1xf16>
    %y = div %num, %sum : !mirage_block.stensor<1x8x8xf16>, !mirage_block.stensor<1x8x1xf16> -> !mirage_block.stensor<1x8x8xf16>
    %ot = output_saver %y omap <x = 0, y = 1> : !mirage_block.stensor<1x8x8xf16> -> tensor<2x16x8xf16>
    yield %ot : tensor<2x16x8xf16>
  }
  return %o : tensor<2x16x8xf16>
}

// Split-KV kernel 2: the partial numerators are read with the grid axes
// exchanged (imap <x = 1, y = 0>, same 1x8x32 tile) while the denominators
// and the output are not.
// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @parts_transposed_grid(%q: tensor<2x16x8xf16>, %k: tensor<2x8x64xf16>, %v: tensor<2x64x8xf16>) -> tensor<2x16x8xf16> {
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
    %pt = input_loader %Pg imap <x = 1, y = 0> : tensor<2x16x32xf16> -> !mirage_block.stensor<1x8x32xf16>
    %dt = input_loader %Dg imap <x = 0, y = 1> : tensor<2x16x4xf16> -> !mirage_block.stensor<1x8x4xf16>
    %num = reduction %pt dim 2 size 8 : !mirage_block.stensor<1x8x32xf16> -> !mirage_block.stensor<1x8x8xf16>
    %sum = reduction %dt dim 2 : !mirage_block.stensor<1x8x4xf16> -> !mirage_block.stensor<1x8x1xf16>
    %y = div %num, %sum : !mirage_block.stensor<1x8x8xf16>, !mirage_block.stensor<1x8x1xf16> -> !mirage_block.stensor<1x8x8xf16>
    %ot = output_saver %y omap <x = 0, y = 1> : !mirage_block.stensor<1x8x8xf16> -> tensor<2x16x8xf16>
    yield %ot : tensor<2x16x8xf16>
  }
  return %o : tensor<2x16x8xf16>
}

// Kernel level: softmax denominator over the queries (dim 1) instead of
// the keys (dim 2).
// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @wrong_softmax_dim(%q: tensor<2x16x8xf16>, %k: tensor<2x8x64xf16>, %v: tensor<2x64x8xf16>) -> tensor<2x16x8xf16> {
  %s = mirage_kernel.matmul %q, %k : tensor<2x16x8xf16>, tensor<2x8x64xf16> -> tensor<2x16x64xf16>
  %e = mirage_kernel.exp %s : tensor<2x16x64xf16>
  %d = mirage_kernel.reduction %e dim 1 : tensor<2x16x64xf16> -> tensor<2x1x64xf16>
  %p = mirage_kernel.div %e, %d : tensor<2x16x64xf16>, tensor<2x1x64xf16> -> tensor<2x16x64xf16>
  %o = mirage_kernel.matmul %p, %v : tensor<2x16x64xf16>, tensor<2x64x8xf16> -> tensor<2x16x8xf16>
  return %o : tensor<2x16x8xf16>
}

// Kernel level: exp(sum S) as the denominator instead of sum exp(S).
// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @exp_of_sum_denominator(%q: tensor<2x16x8xf16>, %k: tensor<2x8x64xf16>, %v: tensor<2x64x8xf16>) -> tensor<2x16x8xf16> {
  %s = mirage_kernel.matmul %q, %k : tensor<2x16x8xf16>, tensor<2x8x64xf16> -> tensor<2x16x64xf16>
  %e = mirage_kernel.exp %s : tensor<2x16x64xf16>
  %ds = mirage_kernel.reduction %s dim 2 : tensor<2x16x64xf16> -> tensor<2x16x1xf16>
  %d = mirage_kernel.exp %ds : tensor<2x16x1xf16>
  %p = mirage_kernel.div %e, %d : tensor<2x16x64xf16>, tensor<2x16x1xf16> -> tensor<2x16x64xf16>
  %o = mirage_kernel.matmul %p, %v : tensor<2x16x64xf16>, tensor<2x64x8xf16> -> tensor<2x16x8xf16>
  return %o : tensor<2x16x8xf16>
}
