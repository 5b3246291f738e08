// RUN: mirage-opt %s --mirage-check-equivalence -verify-diagnostics -o /dev/null
// RUN: mirage-opt %s --mirage-check-equivalence='seed=987654321 trials=3' -verify-diagnostics -o /dev/null
// RUN: not mirage-opt %s --mirage-check-equivalence -o /dev/null 2>/dev/null
// (With -verify-diagnostics mirage-opt exits 0 once every expected error is
// seen; the "not" line checks that the pass itself fails.)

// Single-mistake mutants of elementwise kernel graphs. The reference has
// seven outputs; each mutant changes the computation of exactly one, and
// the error must name that output.
//   o0 = a*b + a*c   o1 = exp(a + b)   o2 = rsqrt(c)   o3 = a / b
//   o4 = a - b       o5 = 0.5 * a      o6 = silu(a)

func.func @ref(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>, %c: tensor<8x8xf32>)
    -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) attributes {mirage.reference} {
  %ab = mirage_kernel.mul %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %ac = mirage_kernel.mul %a, %c : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o0 = mirage_kernel.add %ab, %ac : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %s = mirage_kernel.add %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o1 = mirage_kernel.exp %s : tensor<8x8xf32>
  %o2 = mirage_kernel.rsqrt %c : tensor<8x8xf32>
  %o3 = mirage_kernel.div %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o4 = mirage_kernel.sub %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o5 = mirage_kernel.mul_scalar %a by 5.000000e-01 : tensor<8x8xf32>
  %o6 = mirage_kernel.silu %a : tensor<8x8xf32>
  return %o0, %o1, %o2, %o3, %o4, %o5, %o6 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}

// a*b - a*c instead of a*b + a*c.
// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @sub_instead_of_add(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>, %c: tensor<8x8xf32>)
    -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) {
  %ab = mirage_kernel.mul %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %ac = mirage_kernel.mul %a, %c : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o0 = mirage_kernel.sub %ab, %ac : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %s = mirage_kernel.add %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o1 = mirage_kernel.exp %s : tensor<8x8xf32>
  %o2 = mirage_kernel.rsqrt %c : tensor<8x8xf32>
  %o3 = mirage_kernel.div %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o4 = mirage_kernel.sub %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o5 = mirage_kernel.mul_scalar %a by 5.000000e-01 : tensor<8x8xf32>
  %o6 = mirage_kernel.silu %a : tensor<8x8xf32>
  return %o0, %o1, %o2, %o3, %o4, %o5, %o6 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}

// a*b + c: the factor a dropped from the second term.
// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @dropped_factor(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>, %c: tensor<8x8xf32>)
    -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) {
  %ab = mirage_kernel.mul %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o0 = mirage_kernel.add %ab, %c : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %s = mirage_kernel.add %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o1 = mirage_kernel.exp %s : tensor<8x8xf32>
  %o2 = mirage_kernel.rsqrt %c : tensor<8x8xf32>
  %o3 = mirage_kernel.div %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o4 = mirage_kernel.sub %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o5 = mirage_kernel.mul_scalar %a by 5.000000e-01 : tensor<8x8xf32>
  %o6 = mirage_kernel.silu %a : tensor<8x8xf32>
  return %o0, %o1, %o2, %o3, %o4, %o5, %o6 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}

// a*b + a*c "factored" as a*(b*c).
// expected-error @below {{is not equivalent to @ref: output 0 differs}}
func.func @wrong_distributivity(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>, %c: tensor<8x8xf32>)
    -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) {
  %bc = mirage_kernel.mul %b, %c : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o0 = mirage_kernel.mul %a, %bc : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %s = mirage_kernel.add %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o1 = mirage_kernel.exp %s : tensor<8x8xf32>
  %o2 = mirage_kernel.rsqrt %c : tensor<8x8xf32>
  %o3 = mirage_kernel.div %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o4 = mirage_kernel.sub %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o5 = mirage_kernel.mul_scalar %a by 5.000000e-01 : tensor<8x8xf32>
  %o6 = mirage_kernel.silu %a : tensor<8x8xf32>
  return %o0, %o1, %o2, %o3, %o4, %o5, %o6 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}

// exp(a) + exp(b) instead of exp(a + b).
// expected-error @below {{is not equivalent to @ref: output 1 differs}}
func.func @sum_of_exps(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>, %c: tensor<8x8xf32>)
    -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) {
  %ab = mirage_kernel.mul %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %ac = mirage_kernel.mul %a, %c : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o0 = mirage_kernel.add %ab, %ac : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %ea = mirage_kernel.exp %a : tensor<8x8xf32>
  %eb = mirage_kernel.exp %b : tensor<8x8xf32>
  %o1 = mirage_kernel.add %ea, %eb : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o2 = mirage_kernel.rsqrt %c : tensor<8x8xf32>
  %o3 = mirage_kernel.div %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o4 = mirage_kernel.sub %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o5 = mirage_kernel.mul_scalar %a by 5.000000e-01 : tensor<8x8xf32>
  %o6 = mirage_kernel.silu %a : tensor<8x8xf32>
  return %o0, %o1, %o2, %o3, %o4, %o5, %o6 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}

// exp(a * b) instead of exp(a + b).
// expected-error @below {{is not equivalent to @ref: output 1 differs}}
func.func @exp_of_product(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>, %c: tensor<8x8xf32>)
    -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) {
  %ab = mirage_kernel.mul %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %ac = mirage_kernel.mul %a, %c : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o0 = mirage_kernel.add %ab, %ac : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %s = mirage_kernel.mul %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o1 = mirage_kernel.exp %s : tensor<8x8xf32>
  %o2 = mirage_kernel.rsqrt %c : tensor<8x8xf32>
  %o3 = mirage_kernel.div %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o4 = mirage_kernel.sub %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o5 = mirage_kernel.mul_scalar %a by 5.000000e-01 : tensor<8x8xf32>
  %o6 = mirage_kernel.silu %a : tensor<8x8xf32>
  return %o0, %o1, %o2, %o3, %o4, %o5, %o6 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}

// exp dropped: a + b.
// expected-error @below {{is not equivalent to @ref: output 1 differs}}
func.func @dropped_exp(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>, %c: tensor<8x8xf32>)
    -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) {
  %ab = mirage_kernel.mul %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %ac = mirage_kernel.mul %a, %c : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o0 = mirage_kernel.add %ab, %ac : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o1 = mirage_kernel.add %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o2 = mirage_kernel.rsqrt %c : tensor<8x8xf32>
  %o3 = mirage_kernel.div %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o4 = mirage_kernel.sub %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o5 = mirage_kernel.mul_scalar %a by 5.000000e-01 : tensor<8x8xf32>
  %o6 = mirage_kernel.silu %a : tensor<8x8xf32>
  return %o0, %o1, %o2, %o3, %o4, %o5, %o6 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}

// sqrt(c) instead of rsqrt(c).
// expected-error @below {{is not equivalent to @ref: output 2 differs}}
func.func @sqrt_instead_of_rsqrt(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>, %c: tensor<8x8xf32>)
    -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) {
  %ab = mirage_kernel.mul %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %ac = mirage_kernel.mul %a, %c : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o0 = mirage_kernel.add %ab, %ac : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %s = mirage_kernel.add %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o1 = mirage_kernel.exp %s : tensor<8x8xf32>
  %o2 = mirage_kernel.sqrt %c : tensor<8x8xf32>
  %o3 = mirage_kernel.div %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o4 = mirage_kernel.sub %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o5 = mirage_kernel.mul_scalar %a by 5.000000e-01 : tensor<8x8xf32>
  %o6 = mirage_kernel.silu %a : tensor<8x8xf32>
  return %o0, %o1, %o2, %o3, %o4, %o5, %o6 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}

// rsqrt(c) written as 1 / sqrt(c*c) = 1/|c|.
// expected-error @below {{is not equivalent to @ref: output 2 differs}}
func.func @sqrt_over_square(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>, %c: tensor<8x8xf32>)
    -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) {
  %ab = mirage_kernel.mul %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %ac = mirage_kernel.mul %a, %c : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o0 = mirage_kernel.add %ab, %ac : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %s = mirage_kernel.add %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o1 = mirage_kernel.exp %s : tensor<8x8xf32>
  %cc = mirage_kernel.mul %c, %c : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o2 = mirage_kernel.rsqrt %cc : tensor<8x8xf32>
  %o3 = mirage_kernel.div %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o4 = mirage_kernel.sub %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o5 = mirage_kernel.mul_scalar %a by 5.000000e-01 : tensor<8x8xf32>
  %o6 = mirage_kernel.silu %a : tensor<8x8xf32>
  return %o0, %o1, %o2, %o3, %o4, %o5, %o6 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}

// b / a instead of a / b.
// expected-error @below {{is not equivalent to @ref: output 3 differs}}
func.func @swapped_div(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>, %c: tensor<8x8xf32>)
    -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) {
  %ab = mirage_kernel.mul %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %ac = mirage_kernel.mul %a, %c : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o0 = mirage_kernel.add %ab, %ac : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %s = mirage_kernel.add %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o1 = mirage_kernel.exp %s : tensor<8x8xf32>
  %o2 = mirage_kernel.rsqrt %c : tensor<8x8xf32>
  %o3 = mirage_kernel.div %b, %a : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o4 = mirage_kernel.sub %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o5 = mirage_kernel.mul_scalar %a by 5.000000e-01 : tensor<8x8xf32>
  %o6 = mirage_kernel.silu %a : tensor<8x8xf32>
  return %o0, %o1, %o2, %o3, %o4, %o5, %o6 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}

// a * b instead of a / b.
// expected-error @below {{is not equivalent to @ref: output 3 differs}}
func.func @mul_instead_of_div(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>, %c: tensor<8x8xf32>)
    -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) {
  %ab = mirage_kernel.mul %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %ac = mirage_kernel.mul %a, %c : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o0 = mirage_kernel.add %ab, %ac : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %s = mirage_kernel.add %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o1 = mirage_kernel.exp %s : tensor<8x8xf32>
  %o2 = mirage_kernel.rsqrt %c : tensor<8x8xf32>
  %o3 = mirage_kernel.mul %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o4 = mirage_kernel.sub %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o5 = mirage_kernel.mul_scalar %a by 5.000000e-01 : tensor<8x8xf32>
  %o6 = mirage_kernel.silu %a : tensor<8x8xf32>
  return %o0, %o1, %o2, %o3, %o4, %o5, %o6 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}

// b - a instead of a - b.
// expected-error @below {{is not equivalent to @ref: output 4 differs}}
func.func @swapped_sub(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>, %c: tensor<8x8xf32>)
    -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) {
  %ab = mirage_kernel.mul %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %ac = mirage_kernel.mul %a, %c : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o0 = mirage_kernel.add %ab, %ac : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %s = mirage_kernel.add %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o1 = mirage_kernel.exp %s : tensor<8x8xf32>
  %o2 = mirage_kernel.rsqrt %c : tensor<8x8xf32>
  %o3 = mirage_kernel.div %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o4 = mirage_kernel.sub %b, %a : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o5 = mirage_kernel.mul_scalar %a by 5.000000e-01 : tensor<8x8xf32>
  %o6 = mirage_kernel.silu %a : tensor<8x8xf32>
  return %o0, %o1, %o2, %o3, %o4, %o5, %o6 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}

// a + b instead of a - b.
// expected-error @below {{is not equivalent to @ref: output 4 differs}}
func.func @add_instead_of_sub(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>, %c: tensor<8x8xf32>)
    -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) {
  %ab = mirage_kernel.mul %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %ac = mirage_kernel.mul %a, %c : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o0 = mirage_kernel.add %ab, %ac : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %s = mirage_kernel.add %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o1 = mirage_kernel.exp %s : tensor<8x8xf32>
  %o2 = mirage_kernel.rsqrt %c : tensor<8x8xf32>
  %o3 = mirage_kernel.div %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o4 = mirage_kernel.add %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o5 = mirage_kernel.mul_scalar %a by 5.000000e-01 : tensor<8x8xf32>
  %o6 = mirage_kernel.silu %a : tensor<8x8xf32>
  return %o0, %o1, %o2, %o3, %o4, %o5, %o6 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}

// exp(a - b) instead of a - b.
// expected-error @below {{is not equivalent to @ref: output 4 differs}}
func.func @exp_added(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>, %c: tensor<8x8xf32>)
    -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) {
  %ab = mirage_kernel.mul %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %ac = mirage_kernel.mul %a, %c : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o0 = mirage_kernel.add %ab, %ac : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %s = mirage_kernel.add %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o1 = mirage_kernel.exp %s : tensor<8x8xf32>
  %o2 = mirage_kernel.rsqrt %c : tensor<8x8xf32>
  %o3 = mirage_kernel.div %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %d = mirage_kernel.sub %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o4 = mirage_kernel.exp %d : tensor<8x8xf32>
  %o5 = mirage_kernel.mul_scalar %a by 5.000000e-01 : tensor<8x8xf32>
  %o6 = mirage_kernel.silu %a : tensor<8x8xf32>
  return %o0, %o1, %o2, %o3, %o4, %o5, %o6 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}

// a + neg(neg(b)) = a + b instead of a - b.
// expected-error @below {{is not equivalent to @ref: output 4 differs}}
func.func @neg_twice_missing(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>, %c: tensor<8x8xf32>)
    -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) {
  %ab = mirage_kernel.mul %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %ac = mirage_kernel.mul %a, %c : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o0 = mirage_kernel.add %ab, %ac : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %s = mirage_kernel.add %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o1 = mirage_kernel.exp %s : tensor<8x8xf32>
  %o2 = mirage_kernel.rsqrt %c : tensor<8x8xf32>
  %o3 = mirage_kernel.div %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %nb = mirage_kernel.neg %b : tensor<8x8xf32>
  %nnb = mirage_kernel.neg %nb : tensor<8x8xf32>
  %o4 = mirage_kernel.add %a, %nnb : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o5 = mirage_kernel.mul_scalar %a by 5.000000e-01 : tensor<8x8xf32>
  %o6 = mirage_kernel.silu %a : tensor<8x8xf32>
  return %o0, %o1, %o2, %o3, %o4, %o5, %o6 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}

// mul_scalar by 0.25 instead of 0.5.
// expected-error @below {{is not equivalent to @ref: output 5 differs}}
func.func @mul_scalar_other_constant(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>, %c: tensor<8x8xf32>)
    -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) {
  %ab = mirage_kernel.mul %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %ac = mirage_kernel.mul %a, %c : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o0 = mirage_kernel.add %ab, %ac : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %s = mirage_kernel.add %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o1 = mirage_kernel.exp %s : tensor<8x8xf32>
  %o2 = mirage_kernel.rsqrt %c : tensor<8x8xf32>
  %o3 = mirage_kernel.div %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o4 = mirage_kernel.sub %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o5 = mirage_kernel.mul_scalar %a by 2.500000e-01 : tensor<8x8xf32>
  %o6 = mirage_kernel.silu %a : tensor<8x8xf32>
  return %o0, %o1, %o2, %o3, %o4, %o5, %o6 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}

// mul_scalar by 0.5 + 2^-24 (the next f32 after 0.5) instead of 0.5.
// expected-error @below {{is not equivalent to @ref: output 5 differs}}
func.func @mul_scalar_tiny_difference(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>, %c: tensor<8x8xf32>)
    -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) {
  %ab = mirage_kernel.mul %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %ac = mirage_kernel.mul %a, %c : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o0 = mirage_kernel.add %ab, %ac : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %s = mirage_kernel.add %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o1 = mirage_kernel.exp %s : tensor<8x8xf32>
  %o2 = mirage_kernel.rsqrt %c : tensor<8x8xf32>
  %o3 = mirage_kernel.div %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o4 = mirage_kernel.sub %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o5 = mirage_kernel.mul_scalar %a by 0.500000059604644775390625 : tensor<8x8xf32>
  %o6 = mirage_kernel.silu %a : tensor<8x8xf32>
  return %o0, %o1, %o2, %o3, %o4, %o5, %o6 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}

// gelu instead of silu.
// expected-error @below {{is not equivalent to @ref: output 6 differs}}
func.func @gelu_instead_of_silu(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>, %c: tensor<8x8xf32>)
    -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) {
  %ab = mirage_kernel.mul %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %ac = mirage_kernel.mul %a, %c : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o0 = mirage_kernel.add %ab, %ac : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %s = mirage_kernel.add %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o1 = mirage_kernel.exp %s : tensor<8x8xf32>
  %o2 = mirage_kernel.rsqrt %c : tensor<8x8xf32>
  %o3 = mirage_kernel.div %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o4 = mirage_kernel.sub %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o5 = mirage_kernel.mul_scalar %a by 5.000000e-01 : tensor<8x8xf32>
  %o6 = mirage_kernel.gelu %a : tensor<8x8xf32>
  return %o0, %o1, %o2, %o3, %o4, %o5, %o6 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}

// relu instead of silu.
// expected-error @below {{is not equivalent to @ref: output 6 differs}}
func.func @relu_instead_of_silu(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>, %c: tensor<8x8xf32>)
    -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) {
  %ab = mirage_kernel.mul %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %ac = mirage_kernel.mul %a, %c : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o0 = mirage_kernel.add %ab, %ac : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %s = mirage_kernel.add %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o1 = mirage_kernel.exp %s : tensor<8x8xf32>
  %o2 = mirage_kernel.rsqrt %c : tensor<8x8xf32>
  %o3 = mirage_kernel.div %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o4 = mirage_kernel.sub %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o5 = mirage_kernel.mul_scalar %a by 5.000000e-01 : tensor<8x8xf32>
  %o6 = mirage_kernel.relu %a : tensor<8x8xf32>
  return %o0, %o1, %o2, %o3, %o4, %o5, %o6 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}

// silu(-a) instead of silu(a).
// expected-error @below {{is not equivalent to @ref: output 6 differs}}
func.func @silu_of_neg(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>, %c: tensor<8x8xf32>)
    -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) {
  %ab = mirage_kernel.mul %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %ac = mirage_kernel.mul %a, %c : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o0 = mirage_kernel.add %ab, %ac : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %s = mirage_kernel.add %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o1 = mirage_kernel.exp %s : tensor<8x8xf32>
  %o2 = mirage_kernel.rsqrt %c : tensor<8x8xf32>
  %o3 = mirage_kernel.div %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o4 = mirage_kernel.sub %a, %b : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  %o5 = mirage_kernel.mul_scalar %a by 5.000000e-01 : tensor<8x8xf32>
  %na = mirage_kernel.neg %a : tensor<8x8xf32>
  %o6 = mirage_kernel.silu %na : tensor<8x8xf32>
  return %o0, %o1, %o2, %o3, %o4, %o5, %o6 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}
