//===- Plan.h - The plan.json of a bundle -----------------------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_LIB_TARGET_BUNDLE_PLAN_H
#define MIRAGE_LIB_TARGET_BUNDLE_PLAN_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/JSON.h"

namespace mlir::mirage {

/// The plan entry of a host function made by convert-mirage-kernel-to-gpu:
/// name, inputs, outputs, buffers and launches. Fails with a diagnostic on a
/// function of another form.
FailureOr<llvm::json::Object> getFunctionPlan(func::FuncOp host);

/// The `reference` entry of a function made only of predefined kernel ops
/// (no graph_def): its values, inputs, outputs and ops.
FailureOr<llvm::json::Object> getReferenceProgram(func::FuncOp function);

} // namespace mlir::mirage

#endif // MIRAGE_LIB_TARGET_BUNDLE_PLAN_H
