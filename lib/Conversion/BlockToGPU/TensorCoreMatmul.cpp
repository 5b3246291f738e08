//===- TensorCoreMatmul.cpp - mma.sync matmuls of a block -----------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "TensorCoreMatmul.h"
#include "WarpItems.h"

using namespace mlir;
using namespace mlir::mirage;

void mlir::mirage::emitTensorCoreMatmul(
    KernelEmitter &emitter, const Tile &lhs, const Tile &rhs, const Tile &out,
    function_ref<SmallVector<Value>(ValueRange sums)> epilogue) {
  WarpItems items(emitter, out.shape, lhs.shape.back());
  SmallVector<Value, 4> zeros(4, emitter.f32(0.0));
  storeResults(
      emitter, items, out,
      [&](auto store) {
        items.forEachItem([&](Value item) {
          store(item, items.accumulate(item, lhs, rhs, zeros));
        });
      },
      epilogue);
}

//===----------------------------------------------------------------------===//
// TensorCoreAccumulator
//===----------------------------------------------------------------------===//

TensorCoreAccumulator::TensorCoreAccumulator(int64_t depth,
                                             ArrayRef<int64_t> shape,
                                             int64_t numThreads)
    : depth(depth), shape(shape),
      itemsPerWarp(getTensorCoreSumRegisters(depth, shape, numThreads) / 4) {}

SmallVector<Value> TensorCoreAccumulator::accumulate(KernelEmitter &emitter,
                                                     const Tile &lhs,
                                                     const Tile &rhs,
                                                     ValueRange registers) {
  WarpItems items(emitter, shape, depth);
  SmallVector<Value> next;
  for (int64_t j = 0; j < itemsPerWarp; ++j) {
    ValueRange sums = registers.slice(4 * j, 4);
    llvm::append_range(next, items.forRound(j, sums, [&](Value item) {
      return SmallVector<Value>(items.accumulate(item, lhs, rhs, sums));
    }));
  }
  return next;
}

SmallVector<Value> TensorCoreAccumulator::scaleRows(
    KernelEmitter &emitter, ValueRange registers,
    function_ref<Value(ValueRange batch, Value row)> factor) {
  WarpItems items(emitter, shape, depth);
  SmallVector<Value> next;
  for (int64_t j = 0; j < itemsPerWarp; ++j) {
    ValueRange sums = registers.slice(4 * j, 4);
    llvm::append_range(next, items.forRound(j, sums, [&](Value item) {
      return SmallVector<Value>(items.scaleRows(item, sums, factor));
    }));
  }
  return next;
}

void TensorCoreAccumulator::finish(KernelEmitter &emitter, ValueRange registers,
                                   const Tile &out) {
  WarpItems items(emitter, shape, depth);
  storeResults(emitter, items, out, [&](auto store) {
    for (int64_t j = 0; j < itemsPerWarp; ++j) {
      ValueRange sums = registers.slice(4 * j, 4);
      items.forRound(j, {}, [&](Value item) {
        store(item, sums);
        return SmallVector<Value>();
      });
    }
  });
}
