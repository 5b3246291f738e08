//===- ShapeRules.h - Shape rules shared by kernel and block ops -*- C++
//-*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Kernel tensors and block tiles obey the same shape rules
// (docs/LanguageReference.md). Each check reports a precise diagnostic
// through `emitError` and is
// used by the op verifiers of both levels.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_DIALECT_COMMON_SHAPERULES_H
#define MIRAGE_DIALECT_COMMON_SHAPERULES_H

#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/TypeRange.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace mlir::mirage {

using EmitErrorFn = llvm::function_ref<InFlightDiagnostic()>;

/// The shape that the shaped `operands` (at least one, all of one rank)
/// broadcast to: in each dimension the sizes are equal or 1.
FailureOr<SmallVector<int64_t>> inferBroadcastShape(EmitErrorFn emitError,
                                                    TypeRange operands);

/// Checks that `lhs` and `rhs` broadcast (same rank; each dimension equal or
/// 1 on one side) to `result`, and that the element types agree.
LogicalResult verifyBroadcast(EmitErrorFn emitError, ShapedType lhs,
                              ShapedType rhs, ShapedType result);

/// Checks `[..., m, k] x [..., k, n] -> [..., m, n]` with equal batch
/// dimensions; the result element type is the operands' or f32.
LogicalResult verifyMatmul(EmitErrorFn emitError, ShapedType lhs,
                           ShapedType rhs, ShapedType result);

/// Checks a strided reduction of dimension `dim` of `input` to `size`.
LogicalResult verifyReduction(EmitErrorFn emitError, ShapedType input,
                              int64_t dim, int64_t size, ShapedType result);

/// Checks rms_norm's attributes: `size` is the product of the trailing one or
/// more dimensions of `input`, `eps` is finite and non-negative.
LogicalResult verifyRmsNorm(EmitErrorFn emitError, ShapedType input,
                            int64_t size, APFloat eps);

/// Multiplies a dimension size by `factor` in place, failing with a
/// diagnostic when the product does not fit a static 64-bit size.
LogicalResult multiplyDim(EmitErrorFn emitError, int64_t &dim, int64_t factor);

/// Checks a concatenation of `lhs` and `rhs` along `dim` into `result`.
LogicalResult verifyConcat(EmitErrorFn emitError, ShapedType lhs,
                           ShapedType rhs, int64_t dim, ShapedType result);

/// Checks that `dim` names a dimension of a value of rank `rank`; `what`
/// names the attribute in the message.
LogicalResult verifyDimInRange(EmitErrorFn emitError, StringRef what,
                               int64_t dim, int64_t rank);

/// Prints a shape as `2x4096` for diagnostics.
std::string formatShape(ArrayRef<int64_t> shape);

} // namespace mlir::mirage

#endif // MIRAGE_DIALECT_COMMON_SHAPERULES_H
