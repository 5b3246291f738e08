// RUN: mirage-opt %s --mirage-check-equivalence -verify-diagnostics -o /dev/null
// RUN: mirage-opt %s --mirage-check-equivalence='seed=987654321 trials=3' -verify-diagnostics -o /dev/null

// Algebraic rewrites that hold in exact real arithmetic and that the
// finite-field verifier must prove: distributivity, exp(a+b) = exp(a)exp(b),
// rsqrt(x) = 1/sqrt(x), commutativity, and the same rewrites at block level.
//   o0 = a*b + a*c,  o1 = exp(a + b),  o2 = rsqrt(c)

func.func @ref(%a: tensor<8x16xf32>, %b: tensor<8x16xf32>, %c: tensor<8x16xf32>)
    -> (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) attributes {mirage.reference} {
  %ab = mirage_kernel.mul %a, %b : tensor<8x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
  %ac = mirage_kernel.mul %a, %c : tensor<8x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
  %o0 = mirage_kernel.add %ab, %ac : tensor<8x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
  %s = mirage_kernel.add %a, %b : tensor<8x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
  %o1 = mirage_kernel.exp %s : tensor<8x16xf32>
  %o2 = mirage_kernel.rsqrt %c : tensor<8x16xf32>
  return %o0, %o1, %o2 : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>
}

// a*b + a*c = a*(b + c)
// expected-remark @below {{is equivalent to @ref}}
func.func @distributivity(%a: tensor<8x16xf32>, %b: tensor<8x16xf32>, %c: tensor<8x16xf32>)
    -> (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) {
  %bc = mirage_kernel.add %b, %c : tensor<8x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
  %o0 = mirage_kernel.mul %a, %bc : tensor<8x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
  %s = mirage_kernel.add %a, %b : tensor<8x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
  %o1 = mirage_kernel.exp %s : tensor<8x16xf32>
  %o2 = mirage_kernel.rsqrt %c : tensor<8x16xf32>
  return %o0, %o1, %o2 : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>
}

// Commuted operands everywhere: c*a + b*a, exp(b + a).
// expected-remark @below {{is equivalent to @ref}}
func.func @commuted(%a: tensor<8x16xf32>, %b: tensor<8x16xf32>, %c: tensor<8x16xf32>)
    -> (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) {
  %ca = mirage_kernel.mul %c, %a : tensor<8x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
  %ba = mirage_kernel.mul %b, %a : tensor<8x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
  %o0 = mirage_kernel.add %ca, %ba : tensor<8x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
  %s = mirage_kernel.add %b, %a : tensor<8x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
  %o1 = mirage_kernel.exp %s : tensor<8x16xf32>
  %o2 = mirage_kernel.rsqrt %c : tensor<8x16xf32>
  return %o0, %o1, %o2 : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>
}

// exp(a + b) = exp(a) * exp(b)
// expected-remark @below {{is equivalent to @ref}}
func.func @exp_of_sum(%a: tensor<8x16xf32>, %b: tensor<8x16xf32>, %c: tensor<8x16xf32>)
    -> (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) {
  %ab = mirage_kernel.mul %a, %b : tensor<8x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
  %ac = mirage_kernel.mul %a, %c : tensor<8x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
  %o0 = mirage_kernel.add %ab, %ac : tensor<8x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
  %ea = mirage_kernel.exp %a : tensor<8x16xf32>
  %eb = mirage_kernel.exp %b : tensor<8x16xf32>
  %o1 = mirage_kernel.mul %ea, %eb : tensor<8x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
  %o2 = mirage_kernel.rsqrt %c : tensor<8x16xf32>
  return %o0, %o1, %o2 : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>
}

// exp(a - (-b)) = exp(a) / exp(neg(b)): subtraction and division in the exponent.
// expected-remark @below {{is equivalent to @ref}}
func.func @exp_of_difference(%a: tensor<8x16xf32>, %b: tensor<8x16xf32>, %c: tensor<8x16xf32>)
    -> (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) {
  %ab = mirage_kernel.mul %a, %b : tensor<8x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
  %ac = mirage_kernel.mul %a, %c : tensor<8x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
  %o0 = mirage_kernel.add %ab, %ac : tensor<8x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
  %ea = mirage_kernel.exp %a : tensor<8x16xf32>
  %nb = mirage_kernel.neg %b : tensor<8x16xf32>
  %enb = mirage_kernel.exp %nb : tensor<8x16xf32>
  %o1 = mirage_kernel.div %ea, %enb : tensor<8x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
  %o2 = mirage_kernel.rsqrt %c : tensor<8x16xf32>
  return %o0, %o1, %o2 : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>
}

// rsqrt(c) = 1 / sqrt(c), with 1 built as c / c.
// expected-remark @below {{is equivalent to @ref}}
func.func @rsqrt_is_one_over_sqrt(%a: tensor<8x16xf32>, %b: tensor<8x16xf32>, %c: tensor<8x16xf32>)
    -> (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) {
  %ab = mirage_kernel.mul %a, %b : tensor<8x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
  %ac = mirage_kernel.mul %a, %c : tensor<8x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
  %o0 = mirage_kernel.add %ab, %ac : tensor<8x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
  %s = mirage_kernel.add %a, %b : tensor<8x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
  %o1 = mirage_kernel.exp %s : tensor<8x16xf32>
  %one = mirage_kernel.div %c, %c : tensor<8x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
  %sq = mirage_kernel.sqrt %c : tensor<8x16xf32>
  %o2 = mirage_kernel.div %one, %sq : tensor<8x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
  return %o0, %o1, %o2 : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>
}

// All three rewrites inside one graph_def of 2x2 blocks (4x8 tiles), with
// 1 built as exp(0 * c).
// expected-remark @below {{is equivalent to @ref}}
func.func @block_level(%a: tensor<8x16xf32>, %b: tensor<8x16xf32>, %c: tensor<8x16xf32>)
    -> (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) {
  %o:3 = mirage_kernel.graph_def(%A = %a : tensor<8x16xf32>, %B = %b : tensor<8x16xf32>, %C = %c : tensor<8x16xf32>)
      -> (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) grid [2, 2, 1] block [32, 1, 1] forloop 1 {
    %at = input_loader %A imap <x = 0, y = 1> : tensor<8x16xf32> -> !mirage_block.stensor<4x8xf32>
    %bt = input_loader %B imap <x = 0, y = 1> : tensor<8x16xf32> -> !mirage_block.stensor<4x8xf32>
    %ct = input_loader %C imap <x = 0, y = 1> : tensor<8x16xf32> -> !mirage_block.stensor<4x8xf32>
    %bc = add %bt, %ct : !mirage_block.stensor<4x8xf32>, !mirage_block.stensor<4x8xf32> -> !mirage_block.stensor<4x8xf32>
    %r0 = mul %at, %bc : !mirage_block.stensor<4x8xf32>, !mirage_block.stensor<4x8xf32> -> !mirage_block.stensor<4x8xf32>
    %ea = exp %at : !mirage_block.stensor<4x8xf32>
    %eb = exp %bt : !mirage_block.stensor<4x8xf32>
    %r1 = mul %ea, %eb : !mirage_block.stensor<4x8xf32>, !mirage_block.stensor<4x8xf32> -> !mirage_block.stensor<4x8xf32>
    %zero = mul_scalar %ct by 0.0 : !mirage_block.stensor<4x8xf32>
    %one = exp %zero : !mirage_block.stensor<4x8xf32>
    %sq = sqrt %ct : !mirage_block.stensor<4x8xf32>
    %r2 = div %one, %sq : !mirage_block.stensor<4x8xf32>, !mirage_block.stensor<4x8xf32> -> !mirage_block.stensor<4x8xf32>
    %s0 = output_saver %r0 omap <x = 0, y = 1> : !mirage_block.stensor<4x8xf32> -> tensor<8x16xf32>
    %s1 = output_saver %r1 omap <x = 0, y = 1> : !mirage_block.stensor<4x8xf32> -> tensor<8x16xf32>
    %s2 = output_saver %r2 omap <x = 0, y = 1> : !mirage_block.stensor<4x8xf32> -> tensor<8x16xf32>
    yield %s0, %s1, %s2 : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>
  }
  return %o#0, %o#1, %o#2 : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>
}
