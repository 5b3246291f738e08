//===- CostModel.h - Analytic cost of a µGraph ------------------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A first analytic cost model (docs/Search.md): the global-memory traffic of
// a program, which bounds the memory-bound kernels the benchmarks are made
// of, and its number of launches. Calibration against measured times is the
// job of the fast-kernels work.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SEARCH_COSTMODEL_H
#define MIRAGE_SEARCH_COSTMODEL_H

#include "Mirage/Semantics/Program.h"

#include <tuple>

namespace mlir::mirage::search {

/// What a program costs on an H100-class GPU.
struct CostEstimate {
  /// Estimated run time: the traffic at the memory bandwidth the grid can
  /// draw (a grid of fewer blocks than SMs draws a proportional share), plus
  /// a fixed cost per launch.
  double microseconds = 0.0;
  /// Bytes read from and written to global memory by all blocks: every load
  /// of every block in every iteration that loads it, every save, and every
  /// predefined kernel op's operands and results.
  int64_t globalBytes = 0;
  /// Kernel launches.
  int64_t launches = 0;
  /// The most shared memory a block of any graph_def needs when every tile
  /// it loads or computes is staged there (no reuse).
  int64_t sharedBytes = 0;

  /// Whether every block fits in an H100's shared memory (227 KiB).
  bool fitsSharedMemory() const;
  /// Orders blocks that fit first, then by estimated time, then by traffic.
  bool operator<(const CostEstimate &other) const {
    return std::make_tuple(!fitsSharedMemory(), microseconds, globalBytes) <
           std::make_tuple(!other.fitsSharedMemory(), other.microseconds,
                           other.globalBytes);
  }
};

CostEstimate estimateCost(const sem::Program &program);

} // namespace mlir::mirage::search

#endif // MIRAGE_SEARCH_COSTMODEL_H
