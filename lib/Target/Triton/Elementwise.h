//===- Elementwise.h - Elementwise functions as Python ----------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_LIB_TARGET_TRITON_ELEMENTWISE_H
#define MIRAGE_LIB_TARGET_TRITON_ELEMENTWISE_H

#include "Mirage/Dialect/Common/ElementwiseKind.h"
#include "mlir/IR/Operation.h"

#include <string>

namespace mlir::mirage::triton {

/// Which library an elementwise expression calls: `triton.language` inside a
/// kernel, torch in a host function.
enum class ArrayLibrary { Triton, Torch };

/// The Python expression of the elementwise op `op` (of any level) on the
/// operand expressions `operands`, which hold float32 values; fails with a
/// diagnostic on an op that is not elementwise. Sets `usesLibdevice` when
/// the expression calls `libdevice`.
FailureOr<std::string> elementwiseExpr(Operation *op,
                                       ArrayRef<std::string> operands,
                                       ArrayLibrary library,
                                       bool &usesLibdevice);

} // namespace mlir::mirage::triton

#endif // MIRAGE_LIB_TARGET_TRITON_ELEMENTWISE_H
