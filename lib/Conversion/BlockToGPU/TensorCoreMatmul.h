//===- TensorCoreMatmul.h - mma.sync matmuls of a block ---------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Block matmuls on the tensor cores of sm_80 and later: every warp of the
// block computes 16x8 tiles of the result with `mma.sync.m16n8k16` (f16
// operands, f32 sums), reading its operand fragments straight from the
// operand tiles (docs/CodeGeneration.md).
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_LIB_CONVERSION_BLOCKTOGPU_TENSORCOREMATMUL_H
#define MIRAGE_LIB_CONVERSION_BLOCKTOGPU_TENSORCOREMATMUL_H

#include "KernelEmitter.h"

namespace mlir::mirage {

/// True when a block matmul of `lhsType` by `rhsType` elements, contracting
/// `depth` elements, of result shape `shape` runs on tensor cores in blocks
/// of `numThreads` threads (whole warps): f16 operands, a contracting
/// dimension of whole 16-element steps, whole 8-column tiles, and at least 8
/// result rows (fewer would waste most of each 16-row tile).
bool canUseTensorCores(Type lhsType, Type rhsType, int64_t depth,
                       ArrayRef<int64_t> shape, int64_t numThreads);

/// Emits `out = lhs x rhs` (batched over the leading dimensions) with
/// `mma.sync`: warp `w` takes the 16x8 result tiles `w`, `w + warps`, ...
/// (column tiles fastest), sums the contracting dimension in f32 in
/// 16-element steps, rows past the result's end reading zeros, and rounds
/// each result to the storage type of `out`; then synchronises the block.
/// With fewer tiles than warps, the warps also split the contracting
/// dimension (each warp at most one slice of one tile) and their f32
/// partial sums are added in slice order through shared memory.
/// Requires canUseTensorCores.
void emitTensorCoreMatmul(KernelEmitter &emitter, const Tile &lhs,
                          const Tile &rhs, const Tile &out);

/// The sum over the for-loop of a block matmul (a `forloop_accum` sum of a
/// matmul computed in the loop), kept in registers: every thread holds the
/// f32 `mma.sync` accumulators of its warp's items (the items of
/// emitTensorCoreMatmul) from one iteration to the next, and the sums are
/// written out once, after the loop. Requires canUseTensorCores.
///
/// Example, for a loop of `%m = matmul %a, %b` and `%s = forloop_accum %m
/// sum`:
///
///   TensorCoreAccumulator sum(depth, shape, threads);
///   // scf.for carrying getNumRegisters() f32 zeros as `registers`:
///   registers = sum.accumulate(emitter, a, b, registers);
///   // after the loop:
///   sum.finish(emitter, loop.getResults(), out);
class TensorCoreAccumulator {
public:
  /// For a result of `shape` contracting `depth` elements per iteration, in
  /// blocks of `numThreads` threads.
  TensorCoreAccumulator(int64_t depth, ArrayRef<int64_t> shape,
                        int64_t numThreads);

  /// The f32 registers each thread carries through the loop (4 per item of
  /// its warp).
  int64_t getNumRegisters() const { return 4 * itemsPerWarp; }
  /// Emits one iteration: the registers after adding `lhs x rhs`.
  SmallVector<Value> accumulate(KernelEmitter &emitter, const Tile &lhs,
                                const Tile &rhs, ValueRange registers);
  /// Emits the end, after the loop: writes the sums in `registers` into
  /// `out`, rounded to its storage type (the warps' slices of the
  /// contracting dimension added in slice order), then synchronises the
  /// block.
  void finish(KernelEmitter &emitter, ValueRange registers, const Tile &out);

private:
  int64_t depth;
  SmallVector<int64_t, 4> shape;
  int64_t itemsPerWarp;
};

} // namespace mlir::mirage

#endif // MIRAGE_LIB_CONVERSION_BLOCKTOGPU_TENSORCOREMATMUL_H
