//===- Import.h - Build the compact form of MLIR programs -------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SEMANTICS_IMPORT_H
#define MIRAGE_SEMANTICS_IMPORT_H

#include "Mirage/Semantics/Program.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::mirage::sem {

/// The shape and element type of a tensor, tile or scalar type (f16, bf16,
/// else f32).
ValueType getValueType(Type type);

/// Builds the compact form of a verified kernel-graph function: tensor
/// arguments, Mirage ops, one `func.return`. Emits an error at the first op
/// the semantics does not cover (another dialect, `all_reduce`, several
/// blocks) and fails.
FailureOr<Program> buildProgram(func::FuncOp func);

} // namespace mlir::mirage::sem

#endif // MIRAGE_SEMANTICS_IMPORT_H
