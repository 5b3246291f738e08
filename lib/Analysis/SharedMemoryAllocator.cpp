//===- SharedMemoryAllocator.cpp - A kernel's shared-memory ranges --------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Analysis/SharedMemoryAllocator.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace mlir::mirage;

int64_t SharedMemoryAllocator::allocate(int64_t bytes, int64_t alignment) {
  for (auto it = reusable.begin(); it != reusable.end(); ++it) {
    auto [start, length] = *it;
    int64_t end = start + length;
    int64_t offset = llvm::alignTo(start, alignment);
    // The last range may grow past the end of the memory.
    if (offset + bytes > end && end != size)
      continue;
    reusable.erase(it);
    if (offset != start)
      reusable[start] = offset - start;
    if (offset + bytes < end)
      reusable[offset + bytes] = end - offset - bytes;
    size = std::max(size, offset + bytes);
    return offset;
  }
  int64_t offset = llvm::alignTo(size, alignment);
  size = offset + bytes;
  return offset;
}

void SharedMemoryAllocator::release(int64_t offset, int64_t bytes,
                                    bool synchronized) {
  pending.push_back({offset, bytes});
  if (synchronized)
    synchronize();
}

void SharedMemoryAllocator::synchronize() {
  for (auto [offset, bytes] : pending) {
    int64_t start = offset, end = offset + bytes;
    // Merge with the neighbouring ranges.
    auto next = reusable.lower_bound(start);
    if (next != reusable.end() && next->first == end) {
      end += next->second;
      next = reusable.erase(next);
    }
    if (next != reusable.begin()) {
      auto previous = std::prev(next);
      if (previous->first + previous->second == start) {
        start = previous->first;
        reusable.erase(previous);
      }
    }
    reusable[start] = end - start;
  }
  pending.clear();
}
