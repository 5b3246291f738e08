//===- Traits.h - Op traits shared by the Mirage dialects -------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_DIALECT_COMMON_TRAITS_H
#define MIRAGE_DIALECT_COMMON_TRAITS_H

#include "mlir/IR/OpDefinition.h"

namespace mlir::mirage {
namespace detail {
/// Verifies that the two shaped operands of `op` broadcast to its result.
LogicalResult verifyBroadcastingElementwise(Operation *op);
} // namespace detail

/// An elementwise op on two shaped values that broadcasts
/// (docs/LanguageReference.md, "Broadcasting"):
/// equal ranks, each dimension equal or 1 on one side.
template <typename ConcreteType>
class BroadcastingElementwise
    : public OpTrait::TraitBase<ConcreteType, BroadcastingElementwise> {
public:
  static LogicalResult verifyTrait(Operation *op) {
    return detail::verifyBroadcastingElementwise(op);
  }
};

} // namespace mlir::mirage

#endif // MIRAGE_DIALECT_COMMON_TRAITS_H
