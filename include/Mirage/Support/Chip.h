//===- Chip.h - The GPUs the code generator targets -------------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// One description per chip: its multiprocessors, shared memory, thread and
// block limits, cluster limits and features. Every other file asks a `Chip`
// instead of comparing chip names.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SUPPORT_CHIP_H
#define MIRAGE_SUPPORT_CHIP_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace mlir::mirage {

/// The most threads one block may have, on every chip (CUDA's limit).
inline constexpr int64_t kMaxThreadsPerBlock = 1024;

/// The facts of one GPU architecture that the code generator, the cost model
/// and the search read.
struct Chip {
  /// The name the tools take (`sm_80`, `sm_90a`): the PTX target.
  llvm::StringRef name;
  /// The PTX ISA feature LLVM needs for the chip (`+ptx80`).
  llvm::StringRef ptxFeatures;
  /// The compute capability of the GPUs that run its PTX (8.0, 9.0): what
  /// the driver reports and the tuning database records.
  int computeMajor;
  int computeMinor;
  /// Streaming multiprocessors of that GPU.
  int64_t multiprocessors;
  /// Shared memory of one SM, and the most dynamic shared memory one block
  /// may opt into, in bytes.
  int64_t sharedBytesPerSM;
  int64_t sharedBytesPerBlock;
  /// The shared memory the system reserves per resident block.
  int64_t reservedSharedBytesPerBlock;
  /// The most threads and blocks one SM holds at once.
  int64_t maxThreadsPerSM;
  int64_t maxBlocksPerSM;
  /// The most blocks of a portable thread-block cluster (0: no clusters).
  int64_t maxClusterBlocks;
  /// Whether the chip has the TMA unit (`cp.async.bulk.tensor`) and
  /// warpgroup tensor cores (`wgmma.mma_async`).
  bool hasTMA;
  bool hasWgmma;
  /// Measured figures of the cost model (docs/Benchmarks/CostModel.md,
  /// docs/Benchmarks/GemvSweep.md): copy bandwidth (bytes read and written
  /// per µs), the bandwidth one SM draws, f32 fused multiply-adds per µs of
  /// the SIMT cores, f16 or bf16 multiply-adds (f32 sums; the same rate) per
  /// µs of the tensor cores through mma.sync, and the time of a tiny
  /// kernel's launch.
  double copyBytesPerMicrosecond;
  /// The most bytes per µs the blocks of one SM draw from global memory:
  /// fewer blocks than SMs still fill the memory bandwidth when enough SMs
  /// run one.
  double smBytesPerMicrosecond;
  double simtMultiplyAddsPerMicrosecond;
  double tensorMultiplyAddsPerMicrosecond;
  double launchMicroseconds;
  /// What launching a kernel's blocks as clusters adds to its time
  /// (measured on the H100: the same kernel with and without a cluster of 8,
  /// docs/Benchmarks/AttentionMugraphs.md).
  double clusterLaunchMicroseconds;

  /// Whether the chip runs thread-block clusters.
  bool hasClusters() const { return maxClusterBlocks != 0; }
  /// Whether the chip has programmatic dependent launch (`griddepcontrol`,
  /// compute capability 9.0 and later): a kernel may start while the one
  /// before it in the stream finishes and wait for its results.
  bool hasGridDependencies() const { return computeMajor >= 9; }
  /// The blocks of `threads` threads and `sharedBytes` bytes of dynamic
  /// shared memory each that one SM holds at once, as far as shared memory,
  /// threads and the block limit allow (registers are ptxas's business).
  int64_t residentBlocks(int64_t sharedBytes, int64_t threads) const;
};

/// Every chip the code generator targets, oldest first.
llvm::ArrayRef<Chip> getChips();

/// The chip named `name`, or null.
const Chip *lookupChip(llvm::StringRef name);

/// The names of every chip, as "sm_80 or sm_90a", for diagnostics.
std::string getChipNames();

/// The chips a bundle targets unless told otherwise: every chip, or those
/// with clusters for a program that uses them.
llvm::SmallVector<const Chip *> getDefaultChips(bool usesClusters);

/// The most shared memory a block may use on every one of `chips`: the limit
/// a bundle lowers each chip's kernels within, so that one launch plan fits
/// them all.
int64_t getSharedBytesPerBlock(llvm::ArrayRef<const Chip *> chips);

} // namespace mlir::mirage

#endif // MIRAGE_SUPPORT_CHIP_H
