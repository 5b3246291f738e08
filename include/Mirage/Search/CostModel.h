//===- CostModel.h - Analytic cost of a µGraph ------------------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A first analytic cost model (docs/Search.md): the global-memory traffic of
// a program, which bounds the memory-bound kernels the benchmarks are made
// of, the multiply-adds of its matmuls on the tensor cores where the code
// generator puts them there (f16 tiles, k in 16s, n in 8s) and on the SIMT
// cores otherwise, the latency of the sums (or mma.sync steps) each thread
// takes in turn, and its number of launches, on an A100 (sm_80) or an H100
// (sm_90a). Calibration against measured times is the job of the fast-kernels
// work.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SEARCH_COSTMODEL_H
#define MIRAGE_SEARCH_COSTMODEL_H

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
  /// proportional share of each), and the terms (or mma.sync steps) one
  /// thread takes in turn (latency-bound, per wave of the blocks an SM's
  /// shared memory holds), plus a fixed cost per launch. A block graph
  /// without a for-loop loads before it computes: its traffic is added to
  /// the longer of the other two instead.
  double microseconds = 0.0;
  /// Bytes read from and written to global memory by all blocks: every load
  /// of every block in every iteration that loads it, every save, and every
  /// predefined kernel op's operands and results.
  int64_t globalBytes = 0;
  /// Kernel launches.
  int64_t launches = 0;
  /// Multiply-adds of every matmul, every block and iteration included
  /// (tensor-core tiles padded to 16 rows).
  double multiplyAdds = 0.0;
  /// The most shared memory a block of any graph_def needs when every tile
  /// it loads or computes is staged there (no reuse).
  int64_t sharedBytes = 0;
  /// The shared memory a block may use on the GPU estimated for.
  int64_t sharedBytesLimit = 0;

  /// Whether every block fits in the GPU's shared memory.
  bool fitsSharedMemory() const { return sharedBytes <= sharedBytesLimit; }
  /// Orders blocks that fit first, then by estimated time, then by traffic.
  bool operator<(const CostEstimate &other) const {
    return std::make_tuple(!fitsSharedMemory(), microseconds, globalBytes) <
           std::make_tuple(!other.fitsSharedMemory(), other.microseconds,
                           other.globalBytes);
  }
};

/// The cost of `program` on `gpu`.
CostEstimate estimateCost(const sem::Program &program, const Chip &chip);

} // namespace mlir::mirage::search

#endif // MIRAGE_SEARCH_COSTMODEL_H
