//===- KernelEmitter.h - Building blocks of generated kernels ---*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The pieces every block op of a generated kernel is made of: tiles (a flat
// buffer in global or shared memory, an offset and strides), loops of the
// block's threads over the elements of a shape, scalar f32 arithmetic, and
// the dynamic shared memory of the kernel.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_LIB_CONVERSION_BLOCKTOGPU_KERNELEMITTER_H
#define MIRAGE_LIB_CONVERSION_BLOCKTOGPU_KERNELEMITTER_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace mlir::mirage {

/// A tile as the kernel sees it: element `c` lives at
/// `buffer[offset + sum_k c[k] * strides[k]]`. `buffer` is a flat memref in
/// global memory (a kernel argument) or in workgroup memory.
struct Tile {
  SmallVector<int64_t, 4> shape;
  Value buffer;
  /// Offset of element 0 in `buffer` (an index); null means 0.
  Value offset;
  SmallVector<int64_t, 4> strides;

  /// The element type stored in `buffer`.
  Type getStorageType() const;
  /// True when the tile lives in shared memory.
  bool isShared() const;
};

/// The row-major strides of `shape`.
SmallVector<int64_t, 4> getContiguousStrides(ArrayRef<int64_t> shape);

/// Emits the body of one kernel: thread and block indices, element loops,
/// tile accesses, scalar arithmetic and shared-memory buffers.
class KernelEmitter {
public:
  /// Starts emitting at the beginning of `kernel`'s entry block, for blocks of
  /// `blockDims` threads.
  KernelEmitter(gpu::GPUFuncOp kernel, ArrayRef<int32_t> blockDims);

  OpBuilder &getBuilder() { return builder; }
  Location getLoc() const { return loc; }

  /// An index constant.
  Value index(int64_t value);
  /// An f32 constant.
  Value f32(double value);
  /// `blockIdx` along `axis` (0 = x, 1 = y, 2 = z).
  Value blockId(unsigned axis) { return blockIds[axis]; }

  /// Runs `body(coords)` for every element of `shape`, the elements spread
  /// over the block's threads, then synchronises the block unless
  /// `synchronize` is false.
  void forEachElement(ArrayRef<int64_t> shape,
                      function_ref<void(ValueRange coords)> body,
                      bool synchronize = true);
  /// `scf.for %i = 0 to count` run by every thread (not spread); `body`
  /// returns the next value of the f32 carried in `init`. Returns the final
  /// value. When `count` allows, the loop keeps kSumUnroll independent
  /// partial values (unrolled, so their loads are in flight together) and
  /// adds them at the end.
  Value sequentialSum(int64_t count, Value init,
                      function_ref<Value(Value i, Value acc)> body);
  /// Threads per block.
  int64_t getNumThreads() const { return numThreads; }
  /// Synchronises the threads of the block.
  void barrier();

  /// Reads element `coords` of `tile` as f32.
  Value load(const Tile &tile, ValueRange coords);
  /// Reads the element of `tile` that broadcasts to `coords` of a result of
  /// shape `shape` (dimensions of size 1 repeat).
  Value loadBroadcast(const Tile &tile, ArrayRef<int64_t> shape,
                      ValueRange coords);
  /// Rounds `value` to the storage type of `tile` and writes it at `coords`.
  void store(const Tile &tile, ValueRange coords, Value value);
  /// The linear position of `coords` in `tile.buffer`, as an index.
  Value linearize(const Tile &tile, ValueRange coords);
  /// The coordinates of element `linear` of a row-major `shape`.
  SmallVector<Value, 4> delinearize(Value linear, ArrayRef<int64_t> shape);

  /// A new contiguous tile of `shape` in shared memory storing `type`.
  Tile allocateShared(ArrayRef<int64_t> shape, Type type);
  /// Bytes of dynamic shared memory allocated so far.
  int64_t getSharedMemoryBytes() const { return sharedBytes; }

  /// `value` (f32) rounded to `type` and back, as storing it would.
  Value roundTo(Value value, Type type);

private:
  OpBuilder builder;
  /// Where shared-memory views are created: after the kernel's prologue.
  OpBuilder entryBuilder;
  Location loc;
  int64_t numThreads;
  Value threadId;
  SmallVector<Value, 3> blockIds;
  Value sharedBase;
  int64_t sharedBytes = 0;
};

/// True when `mnemonic` names an elementwise op `emitElementwise` knows.
bool isElementwise(StringRef mnemonic);

/// The f32 result of the elementwise op named `mnemonic` (`exp`, `add`,
/// `mul_scalar`, ...) on f32 operands; `scalar` is mul_scalar's factor.
Value emitElementwise(OpBuilder &builder, Location loc, StringRef mnemonic,
                      ValueRange operands, double scalar);

} // namespace mlir::mirage

#endif // MIRAGE_LIB_CONVERSION_BLOCKTOGPU_KERNELEMITTER_H
