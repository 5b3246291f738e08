//===- SharedMemoryAllocator.h - A kernel's shared-memory ranges -*- C++
//-*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_ANALYSIS_SHAREDMEMORYALLOCATOR_H
#define MIRAGE_ANALYSIS_SHAREDMEMORYALLOCATOR_H

#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <map>

namespace mlir::mirage {

/// The byte ranges of a kernel's dynamic shared memory. A range is
/// allocated first fit among the released ones (extending the last if it
/// ends the memory), else at the end; a released range is reusable once the
/// block's threads have passed a barrier after its last access.
class SharedMemoryAllocator {
public:
  /// The offset of `bytes` new bytes, a multiple of `alignment`.
  int64_t allocate(int64_t bytes, int64_t alignment);
  /// Releases [offset, offset + bytes): reusable now if `synchronized` (a
  /// barrier follows its last access), else after the next synchronize().
  void release(int64_t offset, int64_t bytes, bool synchronized);
  /// The block's threads have passed a barrier.
  void synchronize();
  /// The bytes the ranges span: the end of the highest one ever allocated.
  int64_t getSize() const { return size; }

private:
  /// Reusable ranges, offset to bytes, none adjacent.
  std::map<int64_t, int64_t> reusable;
  /// Released ranges awaiting a barrier.
  llvm::SmallVector<std::pair<int64_t, int64_t>> pending;
  int64_t size = 0;
};

} // namespace mlir::mirage

#endif // MIRAGE_ANALYSIS_SHAREDMEMORYALLOCATOR_H
