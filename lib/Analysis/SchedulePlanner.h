//===- SchedulePlanner.h - The schedule of one rung -------------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_LIB_ANALYSIS_SCHEDULEPLANNER_H
#define MIRAGE_LIB_ANALYSIS_SCHEDULEPLANNER_H

#include "Mirage/Analysis/KernelSchedule.h"

namespace mlir::mirage {

/// Fills `schedule` (whose phases are set) for `graph` with `choices`:
/// everything but the register estimate and the resident blocks.
void planSchedule(kernel::GraphDefOp graph, const ScheduleChoices &choices,
                  KernelSchedule &schedule);

} // namespace mlir::mirage

#endif // MIRAGE_LIB_ANALYSIS_SCHEDULEPLANNER_H
