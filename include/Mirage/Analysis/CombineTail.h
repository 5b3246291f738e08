//===- CombineTail.h - A kernel run by another's last blocks ----*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A *combine tail* is a graph_def that runs inside the kernel of the
// graph_def before it instead of as a launch of its own: the blocks of the
// first kernel fall into groups, each tail block reads only what one group
// wrote, and the block of a group that finishes last runs that group's tail
// blocks, one warp each (docs/CodeGeneration.md, "Combine tails"). It
// is how a split-KV attention (FlashDecoding) could combine its splits
// without a second launch. The code generator reads the decision from here
// (`combine-tails`, off by default: measured slower); the search and its
// cost model do not consider it.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_ANALYSIS_COMBINETAIL_H
#define MIRAGE_ANALYSIS_COMBINETAIL_H

#include "Mirage/Dialect/Kernel/IR/KernelOps.h"

#include <array>
#include <optional>

namespace mlir::mirage {

/// The most tail blocks one group's last block runs: a bound on the work
/// it does alone (not tuned; every form measured was slower already).
constexpr int64_t kMaxTailBlocksPerGroup = 8;

/// How the blocks of a graph_def run the graph_def after it as their tail.
/// The last block of a group runs the group's tail blocks one warp each
/// (the tail compiled for blocks of one warp), as many at once as it has
/// warps.
struct CombineTail {
  /// For each grid axis of the first graph_def: the axis of the tail's grid
  /// that cuts the same chunks of every tensor the tail reads from it (a
  /// group axis), or -1 when all of the axis's blocks fall into one group.
  std::array<int32_t, 3> groupAxes = {-1, -1, -1};
  /// The groups: the first grid's blocks along its group axes.
  int64_t groups = 1;
  /// The first graph_def's blocks in one group.
  int64_t blocksPerGroup = 1;
  /// The tail's blocks in one group: its grid's blocks along the axes no
  /// group axis maps to, which the group's last block runs.
  int64_t tailBlocksPerGroup = 1;
};

/// Whether `second` can run as the combine tail of `first`, and how.
/// `second` must directly follow `first` in the same block, take every
/// result of `first` and nothing else may; neither uses a cluster, both
/// have the same block shape of whole warps, `second` has no loop-varying
/// input_loader (nothing staged ahead, so no TMA copy reads what other
/// blocks wrote), and each tail block must read only what the blocks of one
/// group of `first` saved: a dimension `first` cuts along a grid axis is
/// either cut by one axis of `second` into as many chunks (that axis pairs
/// with it, the same pairing in every tensor) or read whole by each tail
/// block. At most kMaxTailBlocksPerGroup tail blocks per group.
std::optional<CombineTail> getCombineTail(kernel::GraphDefOp first,
                                          kernel::GraphDefOp second);

/// Where the tail's shared memory starts in the combined kernel: after the
/// `firstSharedBytes` of the first graph_def's schedule, 1024-byte aligned,
/// so that the tail overwrites none of its tiles or mbarriers.
int64_t getTailSharedOffset(int64_t firstSharedBytes);

/// The bytes between two warps' shared memory in the combined kernel, whose
/// tail blocks run one warp each: the `tailSharedBytes` of the tail's
/// schedule for one warp, 128-byte aligned.
int64_t getTailSharedStride(int64_t tailSharedBytes);

/// The dynamic shared memory of the combined kernel of two graph_defs whose
/// schedules take `firstSharedBytes` and, for one warp, `tailSharedBytes`,
/// in blocks of `threads` threads.
int64_t getCombinedSharedBytes(int64_t firstSharedBytes,
                               int64_t tailSharedBytes, int64_t threads);

} // namespace mlir::mirage

#endif // MIRAGE_ANALYSIS_COMBINETAIL_H
