//===- ElementwiseOps.td - Elementwise op families shared by all levels ---===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The three Mirage levels (kernel tensors, block tiles, thread scalars) share
// one set of elementwise functions. Each dialect instantiates its op records
// from the lists below, so a function is named and described exactly once.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_DIALECT_COMMON_ELEMENTWISEOPS_TD
#define MIRAGE_DIALECT_COMMON_ELEMENTWISEOPS_TD

/// One elementwise function: the C++ class stem, the op mnemonic and its
/// value on one element `x` (or `lhs`, `rhs`), written for the docs.
class MirageElementwiseFn<string cppStem, string opMnemonic, string formula> {
  string cpp = cppStem;
  string mnemonic = opMnemonic;
  string math = formula;
}

/// The unary functions (docs/LanguageReference.md, "Kernel graphs").
defvar MirageUnaryFns = [
  MirageElementwiseFn<"Exp", "exp", "`exp(x)`">,
  MirageElementwiseFn<"Square", "square", "`x * x`">,
  MirageElementwiseFn<"Sqrt", "sqrt", "`sqrt(x)`">,
  MirageElementwiseFn<"Rsqrt", "rsqrt", "`1 / sqrt(x)`">,
  MirageElementwiseFn<"Silu", "silu", "`x / (1 + exp(-x))`">,
  MirageElementwiseFn<"Gelu", "gelu",
                      "`x / 2 * (1 + erf(x / sqrt(2)))` (the exact GELU)">,
  MirageElementwiseFn<"Relu", "relu", "`max(x, 0)`">,
  MirageElementwiseFn<"Neg", "neg", "`-x`">,
];

/// The binary functions (docs/LanguageReference.md, "Kernel graphs").
defvar MirageBinaryFns = [
  MirageElementwiseFn<"Add", "add", "`lhs + rhs`">,
  MirageElementwiseFn<"Sub", "sub", "`lhs - rhs`">,
  MirageElementwiseFn<"Mul", "mul", "`lhs * rhs`">,
  MirageElementwiseFn<"Div", "div", "`lhs / rhs`">,
  MirageElementwiseFn<"Pow", "pow", "`lhs ^ rhs`">,
];

#endif // MIRAGE_DIALECT_COMMON_ELEMENTWISEOPS_TD
