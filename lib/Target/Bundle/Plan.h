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

/// The program `function` computes, in the JSON form of programs
/// (Mirage/Semantics/ProgramJSON.h). Graph_defs are rejected unless
/// `allowBlockGraphs` (a `reference` is made of predefined kernel ops only);
/// so are ops without semantics (all_reduce).
FailureOr<llvm::json::Object> getProgram(func::FuncOp function,
                                         bool allowBlockGraphs);

} // namespace mlir::mirage

#endif // MIRAGE_LIB_TARGET_BUNDLE_PLAN_H
