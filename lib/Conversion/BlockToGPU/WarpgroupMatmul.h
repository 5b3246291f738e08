//===- WarpgroupMatmul.h - wgmma matmuls of a block -------------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Block matmuls on the warpgroup tensor cores of sm_90a: the warpgroups of
// the block (128 threads each) compute 64-row tiles of the result with
// `wgmma.mma_async.m64nNk16` (f16 or bf16 operands in shared memory, f32
// sums in registers), after copying both operands into shared memory in the
// K-major core-matrix layout that the instruction's descriptors address
// (docs/CodeGeneration.md).
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_LIB_CONVERSION_BLOCKTOGPU_WARPGROUPMATMUL_H
#define MIRAGE_LIB_CONVERSION_BLOCKTOGPU_WARPGROUPMATMUL_H

#include "MatmulAccumulator.h"
#include "Mirage/Analysis/MatmulShapes.h"

namespace mlir::mirage {

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
                                const Tile &rhs, ValueRange registers) override;
  void finish(KernelEmitter &emitter, ValueRange registers,
              const Tile &out) override;

private:
  WarpgroupPlan plan;
};

} // namespace mlir::mirage

#endif // MIRAGE_LIB_CONVERSION_BLOCKTOGPU_WARPGROUPMATMUL_H
