//===- Chip.cpp - The GPUs the code generator targets ---------------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Support/Chip.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <limits>

using namespace mlir::mirage;

/// PTX ISA 8.0 (CUDA 12.0) has every instruction either chip needs,
/// including bf16 conversions and the cluster instructions of sm_90a.
static const Chip kChips[] = {
    // A100 SXM 80 GB: 108 SMs of 164 KiB shared memory (163 KiB per
    // block). Its datasheet's 1.55-2.0 TB/s at the copy efficiency measured
    // on the H100 (2.95 of 3.35 TB/s); one SM drawing twice its share, as
    // on the H100; 108 SMs x 64 f32 lanes at 1.41 GHz; mma.sync at about
    // 90% of 312 f16 TFLOP/s.
    {"sm_80", "+ptx80", 8, 0, 108, 164 * 1024, 163 * 1024, 1024, 2048, 32, 0,
     /*hasTMA=*/false, /*hasWgmma=*/false, 1.76e6, 3.26e4, 9.75e6, 1.4e8, 4.35,
     /*clusterLaunchMicroseconds=*/0.0},
    // H100 SXM: 132 SMs of 228 KiB (227 KiB per block); portable clusters
    // of up to 8 blocks. Measured: 2.95 TB/s copy bandwidth; about 45 GB/s
    // drawn by each of 48 blocks streaming a GEMV's 50 MB of weights (25.0
    // µs, about 2 of them launch and pipeline fill; twice an SM's share of
    // the copy bandwidth); 4.35 µs for a tiny kernel; 132 SMs x 128 f32
    // lanes at 1.98 GHz; mma.sync at about 60% of the 990 f16 TFLOP/s that
    // wgmma reaches; a cluster launch adds 4.1 µs (10.1 -> 14.2 µs for the
    // split-KV MHA µGraph's first kernel with a cluster of 8).
    {"sm_90a", "+ptx80", 9, 0, 132, 228 * 1024, 227 * 1024, 1024, 2048, 32, 8,
     /*hasTMA=*/true, /*hasWgmma=*/true, 2.95e6, 4.5e4, 3.34e7, 3.0e8, 4.35,
     /*clusterLaunchMicroseconds=*/4.1},
};

int64_t Chip::residentBlocks(int64_t sharedBytes, int64_t threads) const {
  int64_t bySharedMemory =
      sharedBytesPerSM / (sharedBytes + reservedSharedBytesPerBlock);
  return std::min({bySharedMemory,
                   maxThreadsPerSM / std::max<int64_t>(threads, 1),
                   maxBlocksPerSM});
}

llvm::ArrayRef<Chip> mlir::mirage::getChips() { return kChips; }

const Chip *mlir::mirage::lookupChip(llvm::StringRef name) {
  const Chip *found = llvm::find_if(
      kChips, [&](const Chip &chip) { return chip.name == name; });
  return found == std::end(kChips) ? nullptr : found;
}

std::string mlir::mirage::getChipNames() {
  std::string names;
  for (const Chip &chip : kChips) {
    if (!names.empty())
      names += &chip == &kChips[std::size(kChips) - 1] ? " or " : ", ";
    names += chip.name.str();
  }
  return names;
}

llvm::SmallVector<const Chip *>
mlir::mirage::getDefaultChips(bool usesClusters) {
  llvm::SmallVector<const Chip *> chips;
  for (const Chip &chip : kChips)
    if (chip.hasClusters() || !usesClusters)
      chips.push_back(&chip);
  return chips;
}

int64_t
mlir::mirage::getSharedBytesPerBlock(llvm::ArrayRef<const Chip *> chips) {
  int64_t limit = std::numeric_limits<int64_t>::max();
  for (const Chip *chip : chips)
    limit = std::min(limit, chip->sharedBytesPerBlock);
  return limit;
}
