// A transformer block in TOSA, as a frontend writes it: RMSNorm (without
// eps), Q/K/V projections, two-head attention with a max-subtracted softmax,
// the output projection and its residual add, RMSNorm, a gated (SwiGLU)
// MLP and its residual add. 8 tokens, hidden size 64, heads of 32, MLP size
// 128, f16.
func.func @block(%x: tensor<8x64xf16>, %wn1: tensor<1x64xf16>,
                 %wq: tensor<1x64x64xf16>, %wk: tensor<1x64x64xf16>,
                 %wv: tensor<1x64x64xf16>, %wo: tensor<1x64x64xf16>,
                 %wn2: tensor<1x64xf16>, %wg: tensor<1x64x128xf16>,
                 %wu: tensor<1x64x128xf16>, %wd: tensor<1x128x64xf16>) -> tensor<8x64xf16> {
  %shift = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %zero = "tosa.const"() {values = dense<0.0> : tensor<1xf16>} : () -> tensor<1xf16>
  %inv64 = "tosa.const"() {values = dense<0.015625> : tensor<1x1xf16>} : () -> tensor<1x1xf16>
  %scale = "tosa.const"() {values = dense<0.125> : tensor<1x1x1xf16>} : () -> tensor<1x1x1xf16>
  %s1x8x64 = tosa.const_shape {values = dense<[1, 8, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s1x8x128 = tosa.const_shape {values = dense<[1, 8, 128]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s8x64 = tosa.const_shape {values = dense<[8, 64]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %s8x2x32 = tosa.const_shape {values = dense<[8, 2, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>

  // RMSNorm 1.
  %sq = tosa.mul %x, %x, %shift : (tensor<8x64xf16>, tensor<8x64xf16>, tensor<1xi8>) -> tensor<8x64xf16>
  %ssum = tosa.reduce_sum %sq {axis = 1 : i32} : (tensor<8x64xf16>) -> tensor<8x1xf16>
  %mean = tosa.mul %ssum, %inv64, %shift : (tensor<8x1xf16>, tensor<1x1xf16>, tensor<1xi8>) -> tensor<8x1xf16>
  %rms = tosa.rsqrt %mean : (tensor<8x1xf16>) -> tensor<8x1xf16>
  %xn = tosa.mul %x, %rms, %shift : (tensor<8x64xf16>, tensor<8x1xf16>, tensor<1xi8>) -> tensor<8x64xf16>
  %h = tosa.mul %xn, %wn1, %shift : (tensor<8x64xf16>, tensor<1x64xf16>, tensor<1xi8>) -> tensor<8x64xf16>

  // Q, K, V.
  %h3 = tosa.reshape %h, %s1x8x64 : (tensor<8x64xf16>, !tosa.shape<3>) -> tensor<1x8x64xf16>
  %q = tosa.matmul %h3, %wq, %zero, %zero : (tensor<1x8x64xf16>, tensor<1x64x64xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x8x64xf16>
  %k = tosa.matmul %h3, %wk, %zero, %zero : (tensor<1x8x64xf16>, tensor<1x64x64xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x8x64xf16>
  %v = tosa.matmul %h3, %wv, %zero, %zero : (tensor<1x8x64xf16>, tensor<1x64x64xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x8x64xf16>

  // Two heads of 32.
  %qh = tosa.reshape %q, %s8x2x32 : (tensor<1x8x64xf16>, !tosa.shape<3>) -> tensor<8x2x32xf16>
  %kh = tosa.reshape %k, %s8x2x32 : (tensor<1x8x64xf16>, !tosa.shape<3>) -> tensor<8x2x32xf16>
  %vh = tosa.reshape %v, %s8x2x32 : (tensor<1x8x64xf16>, !tosa.shape<3>) -> tensor<8x2x32xf16>
  %qt = tosa.transpose %qh {perms = array<i32: 1, 0, 2>} : (tensor<8x2x32xf16>) -> tensor<2x8x32xf16>
  %kt = tosa.transpose %kh {perms = array<i32: 1, 2, 0>} : (tensor<8x2x32xf16>) -> tensor<2x32x8xf16>
  %vt = tosa.transpose %vh {perms = array<i32: 1, 0, 2>} : (tensor<8x2x32xf16>) -> tensor<2x8x32xf16>

  // Attention: softmax(Q K^T / sqrt(32)) V, the maximum subtracted first.
  %s = tosa.matmul %qt, %kt, %zero, %zero : (tensor<2x8x32xf16>, tensor<2x32x8xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x8x8xf16>
  %ss = tosa.mul %s, %scale, %shift : (tensor<2x8x8xf16>, tensor<1x1x1xf16>, tensor<1xi8>) -> tensor<2x8x8xf16>
  %mx = tosa.reduce_max %ss {axis = 2 : i32} : (tensor<2x8x8xf16>) -> tensor<2x8x1xf16>
  %sh = tosa.sub %ss, %mx : (tensor<2x8x8xf16>, tensor<2x8x1xf16>) -> tensor<2x8x8xf16>
  %e = tosa.exp %sh : (tensor<2x8x8xf16>) -> tensor<2x8x8xf16>
  %den = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x8x8xf16>) -> tensor<2x8x1xf16>
  %inv = tosa.reciprocal %den : (tensor<2x8x1xf16>) -> tensor<2x8x1xf16>
  %p = tosa.mul %e, %inv, %shift : (tensor<2x8x8xf16>, tensor<2x8x1xf16>, tensor<1xi8>) -> tensor<2x8x8xf16>
  %a = tosa.matmul %p, %vt, %zero, %zero : (tensor<2x8x8xf16>, tensor<2x8x32xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x8x32xf16>

  // Heads back together, output projection, residual.
  %at = tosa.transpose %a {perms = array<i32: 1, 0, 2>} : (tensor<2x8x32xf16>) -> tensor<8x2x32xf16>
  %a3 = tosa.reshape %at, %s1x8x64 : (tensor<8x2x32xf16>, !tosa.shape<3>) -> tensor<1x8x64xf16>
  %o = tosa.matmul %a3, %wo, %zero, %zero : (tensor<1x8x64xf16>, tensor<1x64x64xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x8x64xf16>
  %o2 = tosa.reshape %o, %s8x64 : (tensor<1x8x64xf16>, !tosa.shape<2>) -> tensor<8x64xf16>
  %r1 = tosa.add %x, %o2 : (tensor<8x64xf16>, tensor<8x64xf16>) -> tensor<8x64xf16>

  // RMSNorm 2.
  %sq2 = tosa.mul %r1, %r1, %shift : (tensor<8x64xf16>, tensor<8x64xf16>, tensor<1xi8>) -> tensor<8x64xf16>
  %ssum2 = tosa.reduce_sum %sq2 {axis = 1 : i32} : (tensor<8x64xf16>) -> tensor<8x1xf16>
  %mean2 = tosa.mul %ssum2, %inv64, %shift : (tensor<8x1xf16>, tensor<1x1xf16>, tensor<1xi8>) -> tensor<8x1xf16>
  %rms2 = tosa.rsqrt %mean2 : (tensor<8x1xf16>) -> tensor<8x1xf16>
  %rn = tosa.mul %r1, %rms2, %shift : (tensor<8x64xf16>, tensor<8x1xf16>, tensor<1xi8>) -> tensor<8x64xf16>
  %h2 = tosa.mul %rn, %wn2, %shift : (tensor<8x64xf16>, tensor<1x64xf16>, tensor<1xi8>) -> tensor<8x64xf16>

  // Gated MLP: down(silu(gate(h)) * up(h)).
  %h23 = tosa.reshape %h2, %s1x8x64 : (tensor<8x64xf16>, !tosa.shape<3>) -> tensor<1x8x64xf16>
  %g = tosa.matmul %h23, %wg, %zero, %zero : (tensor<1x8x64xf16>, tensor<1x64x128xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x8x128xf16>
  %u = tosa.matmul %h23, %wu, %zero, %zero : (tensor<1x8x64xf16>, tensor<1x64x128xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x8x128xf16>
  %sg = tosa.sigmoid %g : (tensor<1x8x128xf16>) -> tensor<1x8x128xf16>
  %silu = tosa.mul %g, %sg, %shift : (tensor<1x8x128xf16>, tensor<1x8x128xf16>, tensor<1xi8>) -> tensor<1x8x128xf16>
  %gu = tosa.mul %silu, %u, %shift : (tensor<1x8x128xf16>, tensor<1x8x128xf16>, tensor<1xi8>) -> tensor<1x8x128xf16>
  %d = tosa.matmul %gu, %wd, %zero, %zero : (tensor<1x8x128xf16>, tensor<1x128x64xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x8x64xf16>
  %d2 = tosa.reshape %d, %s8x64 : (tensor<1x8x64xf16>, !tosa.shape<2>) -> tensor<8x64xf16>
  %out = tosa.add %r1, %d2 : (tensor<8x64xf16>, tensor<8x64xf16>) -> tensor<8x64xf16>
  return %out : tensor<8x64xf16>
}
