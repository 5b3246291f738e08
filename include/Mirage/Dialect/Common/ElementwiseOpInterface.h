//===- ElementwiseOpInterface.h - Ops that report their kind ----*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Every elementwise op of the kernel, block and thread dialects implements
// `ElementwiseOpInterface` (ElementwiseOps.td's `MirageElementwise<fn>`) and
// returns its `ElementwiseKind`. Code that handles the three levels alike
// asks `getElementwiseKind(op)` and switches over the kind.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_DIALECT_COMMON_ELEMENTWISEOPINTERFACE_H
#define MIRAGE_DIALECT_COMMON_ELEMENTWISEOPINTERFACE_H

#include "Mirage/Dialect/Common/ElementwiseKind.h"
#include "mlir/IR/OpDefinition.h"

namespace mlir::mirage {

/// The trait behind ElementwiseOps.td's `MirageElementwiseKindIs<kind>`:
/// gives the op a static `getElementwiseKind()` returning `Kind`, which
/// implements ElementwiseOpInterface.
template <ElementwiseKind Kind> struct ElementwiseKindIs {
  template <typename ConcreteType>
  class Impl : public OpTrait::TraitBase<ConcreteType, Impl> {
  public:
    static constexpr ElementwiseKind getElementwiseKind() { return Kind; }
  };
};

} // namespace mlir::mirage

#include "Mirage/Dialect/Common/ElementwiseOpInterface.h.inc"

namespace mlir::mirage {

/// The elementwise function `op` computes, or nothing when `op` is not an
/// elementwise op of a Mirage dialect.
std::optional<ElementwiseKind> getElementwiseKind(Operation *op);

} // namespace mlir::mirage

#endif // MIRAGE_DIALECT_COMMON_ELEMENTWISEOPINTERFACE_H
