//===- ProgramSchedule.h - Kernel schedules of a candidate ------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The kernel schedules (Mirage/Analysis/KernelSchedule.h) of a program the
// search found, as its feasibility check and its cost model read them: a
// candidate the code generator would refuse has none, and the cost model
// reads threads, shared bytes, resident blocks, pipelining, matmul engines
// and lane partials from the schedule instead of re-deriving them.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SEARCH_PROGRAMSCHEDULE_H
#define MIRAGE_SEARCH_PROGRAMSCHEDULE_H

#include "Mirage/Analysis/KernelSchedule.h"
#include "Mirage/Semantics/Program.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <functional>
#include <optional>
#include <vector>

namespace mlir::mirage::search {

/// What the kernel schedule of one graph_def decided, as the cost model
/// reads it.
struct KernelFacts {
  /// Threads per block.
  int64_t threads = 0;
  /// Dynamic shared memory per block, in bytes.
  int64_t sharedBytes = 0;
  /// Blocks an SM runs at once.
  int64_t residentBlocks = 1;
  /// The for-loop iterations whose tiles are in shared memory at once (0:
  /// none staged).
  int64_t stages = 0;
  /// Whether the TMA unit copies the staged tiles (KernelSchedule::
  /// tensorCopies); otherwise cp.async does, if any are staged.
  bool tensorCopies = false;
  /// Whether the for-loop's tiles are copied ahead of their iteration (two
  /// or more stages), so that loads overlap computation.
  bool isPipelined() const { return stages >= 2; }
  /// The engine of every matmul of the body, in body order.
  std::vector<MatmulEngine> matmulEngines;
  /// For every forloop_accum of the body, in body order, its lane partials
  /// (KernelSchedule::lanePartials), or none where its sum follows the
  /// slices rule. Missing entries count as none.
  std::vector<std::optional<LanePartials>> lanePartials;
};

/// The facts of every graph of a program, by index into Program::graphs
/// (nothing for the kernel graph).
using ProgramFacts = std::vector<std::optional<KernelFacts>>;

/// The facts of `schedule`, the schedule of `graph`.
KernelFacts getKernelFacts(kernel::GraphDefOp graph,
                           const KernelSchedule &schedule);

/// Schedules `program` (a kernel graph of graph_defs), materialized as a
/// function of type `type` with blocks of `threads` threads, as the bundle
/// writer compiles it: every graph_def must have a kernel schedule for each
/// chip a bundle of it targets by default (every chip, or those with
/// clusters when a graph_def uses them) within the smallest shared memory
/// of those chips, with the code generator's default options. Returns the
/// facts of the schedules for `chip` (one of those chips), or nothing when
/// the code generator refuses the program (or its IR does not verify, say
/// from a changed checkpoint). Safe to call from several threads on one
/// multithreaded context.
std::optional<ProgramFacts> scheduleProgram(const sem::Program &program,
                                            FunctionType type, int32_t threads,
                                            const Chip &chip,
                                            MLIRContext *context);

/// scheduleProgram, as a function of the program's own type
/// (getFunctionType), with blocks of `threads` threads on `chip`
/// (BlockSearchOptions::schedule).
std::function<std::optional<ProgramFacts>(const sem::Program &)>
getScheduler(int32_t threads, const Chip &chip, MLIRContext *context);

/// Schedules every graph_def of `function`, whose program is `program` (its
/// graph_defs are the kernel graph's graph_def nodes, in order, each body
/// in the order of its nodes), for each of `chips` within `options`.
/// Returns the facts of the schedules for `chip` (one of `chips`), or
/// nothing when a graph_def has no schedule (its errors are reported).
std::optional<ProgramFacts> scheduleFunction(func::FuncOp function,
                                             const sem::Program &program,
                                             ArrayRef<const Chip *> chips,
                                             const Chip &chip,
                                             const ScheduleOptions &options);

} // namespace mlir::mirage::search

#endif // MIRAGE_SEARCH_PROGRAMSCHEDULE_H
