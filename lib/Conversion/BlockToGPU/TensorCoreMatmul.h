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

/// True when the block matmul `lhs x rhs` of result shape `shape` runs on
/// tensor cores in blocks of `numThreads` threads (whole warps): f16
/// operands, a contracting dimension of whole 16-element steps, whole
/// 8-column tiles, and at least 8 result rows (fewer would waste most of
/// each 16-row tile).
bool canUseTensorCores(const Tile &lhs, const Tile &rhs,
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

} // namespace mlir::mirage

#endif // MIRAGE_LIB_CONVERSION_BLOCKTOGPU_TENSORCOREMATMUL_H
