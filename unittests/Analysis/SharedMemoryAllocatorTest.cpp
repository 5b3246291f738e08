//===- SharedMemoryAllocatorTest.cpp - Liveness-planned shared memory -----===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Analysis/SharedMemoryAllocator.h"

#include "gtest/gtest.h"

#include <map>
#include <random>

using namespace mlir::mirage;

namespace {

TEST(SharedMemoryAllocator, AllocatesAlignedAtTheEnd) {
  SharedMemoryAllocator shared;
  EXPECT_EQ(shared.allocate(100, 16), 0);
  EXPECT_EQ(shared.allocate(64, 16), 112);
  EXPECT_EQ(shared.allocate(8, 1024), 1024);
  EXPECT_EQ(shared.getSize(), 1032);
}

TEST(SharedMemoryAllocator, ReusesOnlyAfterABarrier) {
  SharedMemoryAllocator shared;
  EXPECT_EQ(shared.allocate(256, 16), 0);
  EXPECT_EQ(shared.allocate(256, 16), 256);
  shared.release(0, 256, /*synchronized=*/false);
  // Not reusable until the block has passed a barrier.
  EXPECT_EQ(shared.allocate(256, 16), 512);
  shared.synchronize();
  EXPECT_EQ(shared.allocate(256, 16), 0);
  EXPECT_EQ(shared.getSize(), 768);
}

TEST(SharedMemoryAllocator, FirstFitSplitsAndMerges) {
  SharedMemoryAllocator shared;
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(shared.allocate(128, 16), 128 * i);
  // Two adjacent released ranges merge into one of 256 bytes.
  shared.release(128, 128, /*synchronized=*/true);
  shared.release(256, 128, /*synchronized=*/true);
  EXPECT_EQ(shared.allocate(200, 16), 128);
  // The rest of the merged range, 56 bytes at 328, is too small here...
  EXPECT_EQ(shared.allocate(64, 16), 512);
  // ...but not for 48 aligned bytes (at 336).
  EXPECT_EQ(shared.allocate(48, 16), 336);
  EXPECT_EQ(shared.getSize(), 576);
}

TEST(SharedMemoryAllocator, ExtendsAFreeRangeAtTheEnd) {
  SharedMemoryAllocator shared;
  EXPECT_EQ(shared.allocate(128, 16), 0);
  EXPECT_EQ(shared.allocate(128, 16), 128);
  shared.release(128, 128, /*synchronized=*/true);
  // The free range ends the memory: it grows instead of a new range.
  EXPECT_EQ(shared.allocate(512, 16), 128);
  EXPECT_EQ(shared.getSize(), 640);
}

/// Random allocations and releases: live ranges never overlap, are aligned,
/// and lie within the reported size.
TEST(SharedMemoryAllocator, LiveRangesNeverOverlap) {
  std::mt19937 random(7);
  for (int trial = 0; trial < 200; ++trial) {
    SharedMemoryAllocator shared;
    std::map<int64_t, int64_t> live; // offset -> bytes
    std::vector<std::pair<int64_t, int64_t>> awaiting;
    for (int step = 0; step < 60; ++step) {
      int action = random() % 4;
      if (action <= 1 || live.empty()) {
        int64_t alignment = int64_t(16) << (random() % 7);
        int64_t bytes = 16 * (1 + random() % 64);
        int64_t offset = shared.allocate(bytes, alignment);
        ASSERT_EQ(offset % alignment, 0);
        ASSERT_LE(offset + bytes, shared.getSize());
        auto next = live.lower_bound(offset);
        if (next != live.end())
          ASSERT_LE(offset + bytes, next->first);
        if (next != live.begin()) {
          auto previous = std::prev(next);
          ASSERT_LE(previous->first + previous->second, offset);
        }
        // Ranges released but not yet past a barrier are still in use.
        for (auto [start, length] : awaiting)
          ASSERT_TRUE(offset + bytes <= start || start + length <= offset);
        live[offset] = bytes;
      } else if (action == 2) {
        auto it = std::next(live.begin(), random() % live.size());
        bool synchronized = random() % 2;
        shared.release(it->first, it->second, synchronized);
        if (synchronized)
          awaiting.clear();
        else
          awaiting.push_back(*it);
        live.erase(it);
      } else {
        shared.synchronize();
        awaiting.clear();
      }
    }
  }
}

} // namespace
