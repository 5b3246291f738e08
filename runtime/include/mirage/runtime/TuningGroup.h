//===- TuningGroup.h - The tuning groups of a plan --------------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The functions of a bundle that carry the same tuning key are one program,
// as written and as the search's candidates (docs/Runtime.md, "Tuning").
// This header gathers them and checks that they can stand in for each
// other. No driver calls.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_RUNTIME_TUNINGGROUP_H
#define MIRAGE_RUNTIME_TUNINGGROUP_H

#include "mirage/runtime/Error.h"
#include "mirage/runtime/Plan.h"

#include <string>
#include <vector>

namespace mirage::runtime {

/// The functions of a plan that share a tuning key. The pointers point into
/// the plan, which must outlive the group.
struct TuningGroup {
  std::string key;
  /// The compiler version all of the group's functions carry.
  std::string compiler;
  /// The program as written (candidate -1).
  const Function *asWritten = nullptr;
  /// The search's candidates, by increasing candidate number.
  std::vector<const Function *> candidates;
};

/// The tuning groups of `plan`, in the order their first function appears;
/// functions without `tuning` belong to none (a plan without any gives no
/// group). Each group must have exactly one program as written, no
/// candidate number twice, one compiler, and inputs and outputs of the
/// same count, shapes and dtypes in every function. Failures are
/// InvalidBundle errors naming the field, e.g. "plan.json:
/// functions[2].inputs[0]: bf16 [4, 8] differs from f16 [4, 8] of a, the
/// program as written of tuning group <key>".
Expected<std::vector<TuningGroup>> groupTuningFunctions(const Plan &plan);

} // namespace mirage::runtime

#endif // MIRAGE_RUNTIME_TUNINGGROUP_H
