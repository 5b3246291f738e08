//===- Elementwise.cpp - The elementwise functions of all levels ----------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Dialect/Common/ElementwiseKind.h"
#include "Mirage/Dialect/Common/ElementwiseOpInterface.h"

#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::mirage;

#include "Mirage/Dialect/Common/ElementwiseKind.cpp.inc"
#include "Mirage/Dialect/Common/ElementwiseOpInterface.cpp.inc"

std::optional<ElementwiseKind> mlir::mirage::getElementwiseKind(Operation *op) {
  if (auto elementwise = dyn_cast<ElementwiseOpInterface>(op))
    return elementwise.getElementwiseKind();
  return std::nullopt;
}
