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
// The same lists generate the `ElementwiseKind` enum (ElementwiseKind.td),
// which `ElementwiseOpInterface` below returns: C++ asks an op for its kind
// and switches over the enum instead of comparing mnemonics.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_DIALECT_COMMON_ELEMENTWISEOPS_TD
#define MIRAGE_DIALECT_COMMON_ELEMENTWISEOPS_TD

include "mlir/IR/Interfaces.td"
include "mlir/IR/OpBase.td"

/// One elementwise function: the C++ class stem (also its `ElementwiseKind`
/// enumerator), the op mnemonic (also the kind's string form) and its value
/// on one element `x` (or `lhs`, `rhs`), written for the docs.
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

/// The function of one operand and an f32 attribute `value`; each dialect
/// defines its op by hand (the attribute's syntax is level-independent, its
/// description is not).
defvar MirageMulScalarFn = MirageElementwiseFn<"MulScalar", "mul_scalar",
                                               "`x * value`">;

/// The binary functions (docs/LanguageReference.md, "Kernel graphs").
defvar MirageBinaryFns = [
  MirageElementwiseFn<"Add", "add", "`lhs + rhs`">,
  MirageElementwiseFn<"Sub", "sub", "`lhs - rhs`">,
  MirageElementwiseFn<"Mul", "mul", "`lhs * rhs`">,
  MirageElementwiseFn<"Div", "div", "`lhs / rhs`">,
  MirageElementwiseFn<"Pow", "pow", "`lhs ^ rhs`">,
];

/// Every elementwise function: the functions of one operand first, then the
/// binary ones (ElementwiseKind.h's getElementwiseArity relies on the order).
defvar MirageElementwiseFns =
    !listconcat(MirageUnaryFns, [MirageMulScalarFn], MirageBinaryFns);

//===----------------------------------------------------------------------===//
// ElementwiseOpInterface
//===----------------------------------------------------------------------===//

def MirageElementwiseOpInterface : OpInterface<"ElementwiseOpInterface"> {
  let description = [{
    An op of any level (kernel tensors, block tiles, thread scalars) that
    applies one function of ElementwiseOps.td to every element of its
    operands: `exp`, `add`, `mul_scalar`, ... Code that treats the three
    levels alike asks the op for its `ElementwiseKind` and switches over it.
  }];
  let cppNamespace = "::mlir::mirage";
  let methods = [
    StaticInterfaceMethod<"The elementwise function the op computes.",
      "::mlir::mirage::ElementwiseKind", "getElementwiseKind">,
  ];
}

/// Gives an op the static `getElementwiseKind()` that returns `kind`
/// (ElementwiseOpInterface.h).
class MirageElementwiseKindIs<string kind>
    : ParamNativeOpTrait<"ElementwiseKindIs",
                         "::mlir::mirage::ElementwiseKind::" # kind> {
  let cppNamespace = "::mlir::mirage";
}

/// The traits of an op that computes `fn`: ElementwiseOpInterface, answering
/// `fn`'s kind. Every elementwise op of the three dialects lists it.
class MirageElementwise<MirageElementwiseFn fn> : TraitList<[
    MirageElementwiseKindIs<fn.cpp>, MirageElementwiseOpInterface]>;

#endif // MIRAGE_DIALECT_COMMON_ELEMENTWISEOPS_TD
