//===- ReferenceFunction.h - Reference and candidate functions --*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_TRANSFORMS_REFERENCEFUNCTION_H
#define MIRAGE_TRANSFORMS_REFERENCEFUNCTION_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::mirage {

/// The reference and the candidates of a module: the reference is the
/// function named `name` when given, else the one marked `mirage.reference`,
/// else the first; every other function with a body is a candidate. Emits an
/// error and fails when there is no reference or no candidate.
struct ReferenceAndCandidates {
  func::FuncOp reference;
  SmallVector<func::FuncOp> candidates;
};
FailureOr<ReferenceAndCandidates> findReferenceAndCandidates(ModuleOp module,
                                                             StringRef name);

} // namespace mlir::mirage

#endif // MIRAGE_TRANSFORMS_REFERENCEFUNCTION_H
