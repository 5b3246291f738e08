//===- TensorCoreMatmul.h - mma.sync matmuls of a block ---------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Block matmuls on the tensor cores of sm_80 and later: every warp of the
// block computes 16x8 tiles of the result with `mma.sync.m16n8k16` (f16 or
// bf16 operands, f32 sums), reading its operand fragments straight from the
// operand tiles (docs/CodeGeneration.md).
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_LIB_CONVERSION_BLOCKTOGPU_TENSORCOREMATMUL_H
#define MIRAGE_LIB_CONVERSION_BLOCKTOGPU_TENSORCOREMATMUL_H

#include "MatmulAccumulator.h"

namespace mlir::mirage {

/// Emits `out = lhs x rhs` (batched over the leading dimensions) with
/// `mma.sync`: warp `w` takes the 16x8 result tiles `w`, `w + warps`, ...
/// (column tiles fastest), sums the contracting dimension in f32 in
/// 16-element steps, rows past the result's end reading zeros, and rounds
/// each result to the storage type of `out`; then synchronises the block.
/// With fewer tiles than warps, the warps also split the contracting
/// dimension (each warp at most one slice of one tile) and their f32
/// partial sums are added in slice order through shared memory.
/// `epilogue`, if given, maps f32 sums (several at a time) to the f32
/// values stored.
/// Requires canUseTensorCores.
void emitTensorCoreMatmul(
    KernelEmitter &emitter, const Tile &lhs, const Tile &rhs, const Tile &out,
    function_ref<SmallVector<Value>(ValueRange sums)> epilogue = nullptr);

/// The sum over the for-loop of a block matmul on `mma.sync` tensor cores:
/// every thread holds the f32 accumulators of its warp's items (the items of
/// emitTensorCoreMatmul); at the end, the warps' slices of the contracting
/// dimension are added in slice order. Requires canUseTensorCores.
class TensorCoreAccumulator : public MatmulAccumulator {
public:
  /// For a result of `shape` contracting `depth` elements per iteration, in
  /// blocks of `numThreads` threads.
  TensorCoreAccumulator(int64_t depth, ArrayRef<int64_t> shape,
                        int64_t numThreads);

  /// 4 per item of the thread's warp.
  int64_t getNumRegisters() const override { return 4 * itemsPerWarp; }
  SmallVector<Value> accumulate(KernelEmitter &emitter, const Tile &lhs,
                                const Tile &rhs, ValueRange registers) override;
  SmallVector<Value>
  scaleRows(KernelEmitter &emitter, ValueRange registers,
            function_ref<Value(ValueRange batch, Value row)> factor) override;
  void finish(KernelEmitter &emitter, ValueRange registers,
              const Tile &out) override;

private:
  int64_t depth;
  SmallVector<int64_t, 4> shape;
  int64_t itemsPerWarp;
};

} // namespace mlir::mirage

#endif // MIRAGE_LIB_CONVERSION_BLOCKTOGPU_TENSORCOREMATMUL_H
