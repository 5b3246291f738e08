//===- ElementwiseKind.h - The enum of elementwise functions ----*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// `ElementwiseKind` names the elementwise functions the three levels share
// (exp, square, ..., mul_scalar, add, ..., pow), generated from the lists of
// ElementwiseOps.td together with `stringifyElementwiseKind` and
// `symbolizeElementwiseKind`, whose string form is the op mnemonic. The
// header needs no MLIR IR, so that the compact program form (Semantics/) can
// use it; ops report their kind through ElementwiseOpInterface.h.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_DIALECT_COMMON_ELEMENTWISEKIND_H
#define MIRAGE_DIALECT_COMMON_ELEMENTWISEKIND_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/DenseMapInfo.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/LogicalResult.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <optional>

#include "Mirage/Dialect/Common/ElementwiseKind.h.inc"

namespace mlir::mirage {

/// Number of elementwise functions; the kinds are numbered 0 to
/// kNumElementwiseKinds - 1.
constexpr unsigned kNumElementwiseKinds = getMaxEnumValForElementwiseKind() + 1;

/// Number of operands of `kind`: 2 for the binary functions, 1 for the others
/// (mul_scalar's factor is an attribute). ElementwiseOps.td numbers the
/// binary functions last, from `add`.
constexpr unsigned getElementwiseArity(ElementwiseKind kind) {
  return kind >= ElementwiseKind::Add ? 2 : 1;
}

} // namespace mlir::mirage

#endif // MIRAGE_DIALECT_COMMON_ELEMENTWISEKIND_H
