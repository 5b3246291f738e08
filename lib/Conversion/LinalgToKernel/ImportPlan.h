//===- ImportPlan.h - What a linalg op becomes ------------------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The importer decides what a linalg op becomes before it changes any IR:
// planImport either returns the kernel ops to build, over the op's iteration
// space, or says why there are none. The pattern builds a plan; the pass
// asks again for the reasons of the ops left over.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_LIB_CONVERSION_LINALGTOKERNEL_IMPORTPLAN_H
#define MIRAGE_LIB_CONVERSION_LINALGTOKERNEL_IMPORTPLAN_H

#include "Mirage/Dialect/Common/ElementwiseKind.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <string>

namespace mlir::mirage::import {

/// One kernel value of a plan, at the rank of the op's iteration space (a
/// matmul's operands excepted): a tensor read, or an elementwise function of
/// earlier values.
struct PlanValue {
  /// A read: the tensor, reshaped to `shape` (UnitDims.h).
  Value source;
  /// A function: its kind, its operands (earlier values) and, for
  /// mul_scalar, its factor.
  std::optional<ElementwiseKind> kind;
  SmallVector<int, 2> operands;
  float scalar = 0;
  /// The kernel value's shape: the iteration space's extent in every
  /// dimension the value varies along, 1 in the others.
  SmallVector<int64_t> shape;
};

/// What a linalg op becomes.
struct ImportPlan {
  enum class Kind {
    /// `values[root]`.
    Elementwise,
    /// `values[root]` summed (or, with `maximum`, maxed) over
    /// `reducedDims`, one reduction each.
    Reduction,
    /// matmul of `values[0]` and `values[1]` to `matmulShape`.
    Matmul,
  };
  Kind kind;
  /// The op's result type; the kernel result is reshaped to it.
  RankedTensorType resultType;
  SmallVector<PlanValue> values;
  int root = -1;
  SmallVector<int64_t> reducedDims;
  /// A reduction takes the maximum, not the sum.
  bool maximum = false;
  SmallVector<int64_t> matmulShape;
  /// The tensor the op accumulates into when it is not zero: added to the
  /// kernel result.
  Value accumulator;
};

/// The plan for `op`, or failure with `reason` saying, in a phrase, why the
/// kernel dialect cannot express it.
FailureOr<ImportPlan> planImport(linalg::LinalgOp op, std::string &reason);

} // namespace mlir::mirage::import

#endif // MIRAGE_LIB_CONVERSION_LINALGTOKERNEL_IMPORTPLAN_H
