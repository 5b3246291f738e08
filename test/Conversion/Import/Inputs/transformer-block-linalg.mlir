// The transformer block of transformer-block-tosa.mlir as a frontend that
// emits linalg on tensors writes it (torch-mlir's style): named matmuls into
// zero fills, generics for the elementwise math, linalg.reduce for sums and
// the softmax's maximum, linalg.transpose and tensor reshapes for the heads.
#id2 = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
#col = affine_map<(i, j) -> (j)>
#id3 = affine_map<(b, i, j) -> (b, i, j)>
#row3 = affine_map<(b, i, j) -> (b, i)>
func.func @block(%x: tensor<8x64xf16>, %wn1: tensor<64xf16>,
                 %wq: tensor<64x64xf16>, %wk: tensor<64x64xf16>,
                 %wv: tensor<64x64xf16>, %wo: tensor<64x64xf16>,
                 %wn2: tensor<64xf16>, %wg: tensor<64x128xf16>,
                 %wu: tensor<64x128xf16>, %wd: tensor<128x64xf16>) -> tensor<8x64xf16> {
  %zero = arith.constant 0.0 : f16
  %ninf = arith.constant 0xFC00 : f16
  %e8 = tensor.empty() : tensor<8xf16>
  %z8 = linalg.fill ins(%zero : f16) outs(%e8 : tensor<8xf16>) -> tensor<8xf16>
  %e8x64 = tensor.empty() : tensor<8x64xf16>
  %z8x64 = linalg.fill ins(%zero : f16) outs(%e8x64 : tensor<8x64xf16>) -> tensor<8x64xf16>

  // RMSNorm 1: x * rsqrt(sum(x^2) / 64) * w.
  %ss = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x64xf16>) outs(%z8 : tensor<8xf16>) {
  ^bb0(%a: f16, %acc: f16):
    %sq = arith.mulf %a, %a : f16
    %s = arith.addf %sq, %acc : f16
    linalg.yield %s : f16
  } -> tensor<8xf16>
  %h = linalg.generic {indexing_maps = [#id2, #row, #col, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %ss, %wn1 : tensor<8x64xf16>, tensor<8xf16>, tensor<64xf16>) outs(%e8x64 : tensor<8x64xf16>) {
  ^bb0(%a: f16, %s: f16, %w: f16, %out: f16):
    %c = arith.constant 0.015625 : f16
    %m = arith.mulf %s, %c : f16
    %r = math.rsqrt %m : f16
    %n = arith.mulf %a, %r : f16
    %y = arith.mulf %n, %w : f16
    linalg.yield %y : f16
  } -> tensor<8x64xf16>

  // Q, K, V.
  %q = linalg.matmul ins(%h, %wq : tensor<8x64xf16>, tensor<64x64xf16>) outs(%z8x64 : tensor<8x64xf16>) -> tensor<8x64xf16>
  %k = linalg.matmul ins(%h, %wk : tensor<8x64xf16>, tensor<64x64xf16>) outs(%z8x64 : tensor<8x64xf16>) -> tensor<8x64xf16>
  %v = linalg.matmul ins(%h, %wv : tensor<8x64xf16>, tensor<64x64xf16>) outs(%z8x64 : tensor<8x64xf16>) -> tensor<8x64xf16>

  // Two heads of 32.
  %qh = tensor.expand_shape %q [[0], [1, 2]] output_shape [8, 2, 32] : tensor<8x64xf16> into tensor<8x2x32xf16>
  %kh = tensor.expand_shape %k [[0], [1, 2]] output_shape [8, 2, 32] : tensor<8x64xf16> into tensor<8x2x32xf16>
  %vh = tensor.expand_shape %v [[0], [1, 2]] output_shape [8, 2, 32] : tensor<8x64xf16> into tensor<8x2x32xf16>
  %eq = tensor.empty() : tensor<2x8x32xf16>
  %qt = linalg.transpose ins(%qh : tensor<8x2x32xf16>) outs(%eq : tensor<2x8x32xf16>) permutation = [1, 0, 2]
  %ek = tensor.empty() : tensor<2x32x8xf16>
  %kt = linalg.transpose ins(%kh : tensor<8x2x32xf16>) outs(%ek : tensor<2x32x8xf16>) permutation = [1, 2, 0]
  %vt = linalg.transpose ins(%vh : tensor<8x2x32xf16>) outs(%eq : tensor<2x8x32xf16>) permutation = [1, 0, 2]

  // Attention: softmax(Q K^T / sqrt(32)) V, the maximum subtracted first.
  %e2x8x8 = tensor.empty() : tensor<2x8x8xf16>
  %z2x8x8 = linalg.fill ins(%zero : f16) outs(%e2x8x8 : tensor<2x8x8xf16>) -> tensor<2x8x8xf16>
  %s = linalg.batch_matmul ins(%qt, %kt : tensor<2x8x32xf16>, tensor<2x32x8xf16>) outs(%z2x8x8 : tensor<2x8x8xf16>) -> tensor<2x8x8xf16>
  %sc = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x8x8xf16>) outs(%e2x8x8 : tensor<2x8x8xf16>) {
  ^bb0(%a: f16, %out: f16):
    %c = arith.constant 0.125 : f16
    %y = arith.mulf %a, %c : f16
    linalg.yield %y : f16
  } -> tensor<2x8x8xf16>
  %e2x8 = tensor.empty() : tensor<2x8xf16>
  %minf = linalg.fill ins(%ninf : f16) outs(%e2x8 : tensor<2x8xf16>) -> tensor<2x8xf16>
  %mx = linalg.reduce ins(%sc : tensor<2x8x8xf16>) outs(%minf : tensor<2x8xf16>) dimensions = [2]
    (%a: f16, %acc: f16) {
      %m = arith.maximumf %a, %acc : f16
      linalg.yield %m : f16
    }
  %ex = linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%sc, %mx : tensor<2x8x8xf16>, tensor<2x8xf16>) outs(%e2x8x8 : tensor<2x8x8xf16>) {
  ^bb0(%a: f16, %m: f16, %out: f16):
    %d = arith.subf %a, %m : f16
    %y = math.exp %d : f16
    linalg.yield %y : f16
  } -> tensor<2x8x8xf16>
  %z2x8 = linalg.fill ins(%zero : f16) outs(%e2x8 : tensor<2x8xf16>) -> tensor<2x8xf16>
  %den = linalg.reduce ins(%ex : tensor<2x8x8xf16>) outs(%z2x8 : tensor<2x8xf16>) dimensions = [2]
    (%a: f16, %acc: f16) {
      %s2 = arith.addf %a, %acc : f16
      linalg.yield %s2 : f16
    }
  %p = linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ex, %den : tensor<2x8x8xf16>, tensor<2x8xf16>) outs(%e2x8x8 : tensor<2x8x8xf16>) {
  ^bb0(%a: f16, %d: f16, %out: f16):
    %y = arith.divf %a, %d : f16
    linalg.yield %y : f16
  } -> tensor<2x8x8xf16>
  %e2x8x32 = tensor.empty() : tensor<2x8x32xf16>
  %z2x8x32 = linalg.fill ins(%zero : f16) outs(%e2x8x32 : tensor<2x8x32xf16>) -> tensor<2x8x32xf16>
  %a = linalg.batch_matmul ins(%p, %vt : tensor<2x8x8xf16>, tensor<2x8x32xf16>) outs(%z2x8x32 : tensor<2x8x32xf16>) -> tensor<2x8x32xf16>

  // Heads back together, output projection, residual.
  %ea = tensor.empty() : tensor<8x2x32xf16>
  %at = linalg.transpose ins(%a : tensor<2x8x32xf16>) outs(%ea : tensor<8x2x32xf16>) permutation = [1, 0, 2]
  %a2 = tensor.collapse_shape %at [[0], [1, 2]] : tensor<8x2x32xf16> into tensor<8x64xf16>
  %o = linalg.matmul ins(%a2, %wo : tensor<8x64xf16>, tensor<64x64xf16>) outs(%z8x64 : tensor<8x64xf16>) -> tensor<8x64xf16>
  %r1 = linalg.add ins(%x, %o : tensor<8x64xf16>, tensor<8x64xf16>) outs(%e8x64 : tensor<8x64xf16>) -> tensor<8x64xf16>

  // RMSNorm 2.
  %ss2 = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%r1 : tensor<8x64xf16>) outs(%z8 : tensor<8xf16>) {
  ^bb0(%b: f16, %acc: f16):
    %sq = arith.mulf %b, %b : f16
    %s2 = arith.addf %sq, %acc : f16
    linalg.yield %s2 : f16
  } -> tensor<8xf16>
  %h2 = linalg.generic {indexing_maps = [#id2, #row, #col, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%r1, %ss2, %wn2 : tensor<8x64xf16>, tensor<8xf16>, tensor<64xf16>) outs(%e8x64 : tensor<8x64xf16>) {
  ^bb0(%b: f16, %s2: f16, %w: f16, %out: f16):
    %c = arith.constant 0.015625 : f16
    %m = arith.mulf %s2, %c : f16
    %r = math.rsqrt %m : f16
    %n = arith.mulf %b, %r : f16
    %y = arith.mulf %n, %w : f16
    linalg.yield %y : f16
  } -> tensor<8x64xf16>

  // Gated MLP: down(silu(gate(h)) * up(h)), the sigmoid its own op.
  %e8x128 = tensor.empty() : tensor<8x128xf16>
  %z8x128 = linalg.fill ins(%zero : f16) outs(%e8x128 : tensor<8x128xf16>) -> tensor<8x128xf16>
  %g = linalg.matmul ins(%h2, %wg : tensor<8x64xf16>, tensor<64x128xf16>) outs(%z8x128 : tensor<8x128xf16>) -> tensor<8x128xf16>
  %u = linalg.matmul ins(%h2, %wu : tensor<8x64xf16>, tensor<64x128xf16>) outs(%z8x128 : tensor<8x128xf16>) -> tensor<8x128xf16>
  %sg = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%g : tensor<8x128xf16>) outs(%e8x128 : tensor<8x128xf16>) {
  ^bb0(%b: f16, %out: f16):
    %one = arith.constant 1.0 : f16
    %n = arith.negf %b : f16
    %ex2 = math.exp %n : f16
    %d = arith.addf %one, %ex2 : f16
    %y = arith.divf %one, %d : f16
    linalg.yield %y : f16
  } -> tensor<8x128xf16>
  %gu = linalg.generic {indexing_maps = [#id2, #id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%g, %sg, %u : tensor<8x128xf16>, tensor<8x128xf16>, tensor<8x128xf16>) outs(%e8x128 : tensor<8x128xf16>) {
  ^bb0(%b: f16, %c: f16, %d: f16, %out: f16):
    %sl = arith.mulf %b, %c : f16
    %y = arith.mulf %sl, %d : f16
    linalg.yield %y : f16
  } -> tensor<8x128xf16>
  %dn = linalg.matmul ins(%gu, %wd : tensor<8x128xf16>, tensor<128x64xf16>) outs(%z8x64 : tensor<8x64xf16>) -> tensor<8x64xf16>
  %out = linalg.add ins(%r1, %dn : tensor<8x64xf16>, tensor<8x64xf16>) outs(%e8x64 : tensor<8x64xf16>) -> tensor<8x64xf16>
  return %out : tensor<8x64xf16>
}
