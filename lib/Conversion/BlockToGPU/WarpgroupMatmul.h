//===- WarpgroupMatmul.h - wgmma matmuls of a block -------------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Block matmuls on the warpgroup tensor cores of sm_90a: the warpgroups of
// the block (128 threads each) compute 64-row tiles of the result with
// `wgmma.mma_async.m64nNk16` (f16 operands in shared memory, f32 sums in
// registers), after copying both operands into shared memory in the
// K-major core-matrix layout that the instruction's descriptors address
// (docs/CodeGeneration.md).
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_LIB_CONVERSION_BLOCKTOGPU_WARPGROUPMATMUL_H
#define MIRAGE_LIB_CONVERSION_BLOCKTOGPU_WARPGROUPMATMUL_H

#include "MatmulAccumulator.h"

namespace mlir::mirage {

/// The shape of the wgmma work of a block matmul of result `shape`,
/// contracting `depth` elements, in blocks of `numThreads` threads: which
/// operand gives the 64-row tiles, the padded extents, the columns of one
/// instruction, and the items (one 64-row tile by one column chunk) of each
/// warpgroup.
struct WarpgroupPlan {
  WarpgroupPlan(int64_t depth, ArrayRef<int64_t> shape, int64_t numThreads);

  /// The f32 sums each thread holds for all of its warpgroup's items.
  int64_t getNumRegisters() const { return itemsPerWarpgroup * columns / 2; }

  SmallVector<int64_t, 2> batchShape;
  int64_t batch;
  int64_t depth;
  /// Whether the result is computed transposed, `out^T = rhs^T x lhs^T`:
  /// the instruction's 64 rows then run over the result's columns, which
  /// wastes less of them when the result has few rows.
  bool swapped;
  /// Rows of the instruction's A and B operands (K-major, `[rows, depth]`):
  /// the result's rows and columns, or the other way round when swapped;
  /// and the same padded to 64 and to 8.
  int64_t rowsA, rowsB, paddedRowsA, paddedRowsB;
  /// The N of one instruction and the chunks of B's rows that make up one
  /// 64-row tile.
  int64_t columns, chunks;
  int64_t items, warpgroups, itemsPerWarpgroup;
};

/// True when a block matmul of `lhsType` by `rhsType` elements, contracting
/// `depth` elements, of result shape `shape` runs on `wgmma` in blocks of
/// `numThreads` threads: f16 operands, whole 16-element steps of the
/// contracting dimension, whole warpgroups, and at most 128 f32 sums per
/// thread.
bool canUseWarpgroupMatmul(Type lhsType, Type rhsType, int64_t depth,
                           ArrayRef<int64_t> shape, int64_t numThreads);

/// Emits `out = lhs x rhs` (batched over the leading dimensions) with
/// `wgmma`: both operands are copied into shared memory (zero rows padding
/// them to whole instructions), then warpgroup `w` takes the items `w`,
/// `w + warpgroups`, ..., sums the contracting dimension in f32 in
/// 16-element steps and rounds each result to the storage type of `out`;
/// then synchronises the block. Requires canUseWarpgroupMatmul.
void emitWarpgroupMatmul(KernelEmitter &emitter, const Tile &lhs,
                         const Tile &rhs, const Tile &out);

/// The sum over the for-loop of a block matmul on `wgmma`: every thread
/// holds the f32 accumulators of its warpgroup's items. Requires
/// canUseWarpgroupMatmul.
class WarpgroupAccumulator : public MatmulAccumulator {
public:
  WarpgroupAccumulator(int64_t depth, ArrayRef<int64_t> shape,
                       int64_t numThreads)
      : plan(depth, shape, numThreads) {}

  int64_t getNumRegisters() const override { return plan.getNumRegisters(); }
  SmallVector<Value> accumulate(KernelEmitter &emitter, const Tile &lhs,
                                const Tile &rhs,
                                ValueRange registers) override;
  void finish(KernelEmitter &emitter, ValueRange registers,
              const Tile &out) override;

private:
  WarpgroupPlan plan;
};

} // namespace mlir::mirage

#endif // MIRAGE_LIB_CONVERSION_BLOCKTOGPU_WARPGROUPMATMUL_H
