//===- CostModel.h - Analytic cost of a µGraph ------------------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// An analytic cost model (docs/Search.md): the global-memory traffic of a
// program, which bounds the memory-bound kernels the benchmarks are made of,
// the multiply-adds of its matmuls on the engine the kernel schedule gives
// them (tensor cores or SIMT cores), the latency of the sums (or
// tensor-core steps) each thread takes in turn, and its number of launches,
// on an A100 (sm_80) or an H100 (sm_90a). Threads, shared memory, resident
// blocks, pipelining and engines are the kernel schedule's
// (ProgramSchedule.h): the model has no rules of its own for them.
// docs/Benchmarks/CostModel.md ranks it against measured kernels.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SEARCH_COSTMODEL_H
#define MIRAGE_SEARCH_COSTMODEL_H

#include "Mirage/Search/ProgramSchedule.h"
#include "Mirage/Semantics/Program.h"
#include "Mirage/Support/Chip.h"

#include <optional>
#include <tuple>

namespace mlir::mirage::search {

/// What a program costs on one GPU.
struct CostEstimate {
  /// Estimated run time: per launch, the longest of its traffic at the
  /// memory bandwidth and its multiply-adds at the SIMT and tensor-core
  /// rates the grid can draw (a grid of fewer blocks than SMs draws a
  /// proportional share of each), and the terms (or tensor-core steps) one
  /// thread takes in turn (latency-bound, per wave of the blocks the
  /// schedule makes resident), plus a fixed cost per launch. A kernel whose
  /// schedule does not pipeline its loads loads before it computes: its
  /// traffic is added to the longer of the other two instead. Infinite when
  /// a graph_def has no schedule.
  double microseconds = 0.0;
  /// Bytes read from and written to global memory by all blocks: every load
  /// of every block in every iteration that loads it, every save, and every
  /// predefined kernel op's operands and results.
  int64_t globalBytes = 0;
  /// Kernel launches.
  int64_t launches = 0;
  /// Multiply-adds of every matmul, every block and iteration included
  /// (tensor-core tiles padded to whole steps).
  double multiplyAdds = 0.0;
  /// The most dynamic shared memory a block of any graph_def takes, as
  /// scheduled.
  int64_t sharedBytes = 0;
  /// Whether every graph_def has a kernel schedule.
  bool scheduled = true;

  /// Orders scheduled programs first, then by estimated time, then by
  /// traffic.
  bool operator<(const CostEstimate &other) const {
    return std::make_tuple(!scheduled, microseconds, globalBytes) <
           std::make_tuple(!other.scheduled, other.microseconds,
                           other.globalBytes);
  }
};

/// The cost of `program` on `chip`, whose graph_defs have the kernel
/// schedules `facts` give for that chip (scheduleProgram).
CostEstimate estimateCost(const sem::Program &program, const Chip &chip,
                          const ProgramFacts &facts);

/// The multiply-adds of every matmul of `program`, every block and
/// iteration included (no padding): the work of evaluating it once.
double countMultiplyAdds(const sem::Program &program);

} // namespace mlir::mirage::search

#endif // MIRAGE_SEARCH_COSTMODEL_H
