//===- UnitDims.h - Reshapes that add or drop unit dimensions ---*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Kernel ops keep a reduced dimension with size 1 and broadcast operands of
// the same rank, where linalg drops dimensions. Two shapes that list the same
// dimensions once their 1s are removed hold the same row-major data; the
// importer connects them with tensor.collapse_shape and tensor.expand_shape,
// which fold away between kernel ops.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_LIB_CONVERSION_LINALGTOKERNEL_UNITDIMS_H
#define MIRAGE_LIB_CONVERSION_LINALGTOKERNEL_UNITDIMS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

namespace mlir::mirage::import {

/// True when `a` and `b` list the same dimensions once their 1s are removed.
bool differInUnitDimsOnly(ArrayRef<int64_t> a, ArrayRef<int64_t> b);

/// A value of type `type` that already holds `value`'s data: `value` itself,
/// or the source of a chain of tensor.expand_shape/collapse_shape ops that
/// produced it; null when there is none.
Value findUnitDimReshape(Value value, RankedTensorType type);

/// `value` as a tensor of `type` (which differs from its type in unit
/// dimensions only): findUnitDimReshape's value, else a new collapse of
/// `value`'s unit dimensions followed by an expansion to `type`.
Value reshapeUnitDims(OpBuilder &builder, Location loc, Value value,
                      RankedTensorType type);

} // namespace mlir::mirage::import

#endif // MIRAGE_LIB_CONVERSION_LINALGTOKERNEL_UNITDIMS_H
