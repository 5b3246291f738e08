// RUN: mirage-opt %s -split-input-file --mirage-check-equivalence -verify-diagnostics -o /dev/null

// expected-error @below {{no function to check: the module needs a reference and at least one candidate}}
module {
}

// -----

// expected-error @below {{is the only function: there is no candidate to check}}
func.func @alone(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

func.func @ref(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
// expected-error @below {{cannot be checked against @ref: candidate input 0 is 8xf32, the reference's is 4xf32}}
func.func @wrong_shape(%x: tensor<8xf32>) -> tensor<4xf32> {
  %r = mirage_kernel.reduction %x dim 0 size 4 : tensor<8xf32> -> tensor<4xf32>
  return %r : tensor<4xf32>
}
// expected-error @below {{cannot be checked against @ref: candidate has 2 inputs, the reference 1}}
func.func @wrong_count(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
// expected-error @below {{cannot be checked against @ref: candidate has 2 outputs, the reference 1}}
func.func @two_outputs(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  return %x, %x : tensor<4xf32>, tensor<4xf32>
}

// -----

func.func @ref(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{is a multi-GPU op, which the single-GPU semantics lacks}}
  %s = mirage_kernel.all_reduce %x : tensor<4xf32>
  return %s : tensor<4xf32>
}
func.func @candidate(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

func.func @ref(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant dense<1.0> : tensor<4xf32>
  // expected-error @above {{'arith.constant' op has no Mirage semantics}}
  %s = mirage_kernel.add %x, %c : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %s : tensor<4xf32>
}
func.func @candidate(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

// expected-error @below {{cannot be checked: reference: exp: exp of a value that already depends on exp is outside the verifiable (LAX) fragment}}
func.func @ref(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = mirage_kernel.exp %x : tensor<4xf32>
  %f = mirage_kernel.exp %e : tensor<4xf32>
  return %f : tensor<4xf32>
}
func.func @candidate(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

// expected-remark @below {{is equivalent to @marked: 2 trials, false-positive probability <= 2^-124.0; output dimension 0 checked at 1 of its 4 indices; float64 relative error 0.0e+00}}
func.func @first(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
// The marked function is the reference, wherever it stands.
// expected-remark @below {{is equivalent to @marked: 2 trials}}
func.func @second(%x: tensor<4xf32>) -> tensor<4xf32> {
  %n = mirage_kernel.neg %x : tensor<4xf32>
  %m = mirage_kernel.neg %n : tensor<4xf32>
  return %m : tensor<4xf32>
}
func.func @marked(%x: tensor<4xf32>) -> tensor<4xf32> attributes {mirage.reference} {
  return %x : tensor<4xf32>
}
