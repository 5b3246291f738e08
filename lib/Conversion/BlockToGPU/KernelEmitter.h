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

#include "Mirage/Analysis/KernelSchedule.h"
#include "Mirage/Dialect/Common/ElementwiseOpInterface.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace mlir::mirage {

/// Independent partials of each sum of a sequentialSum.
inline constexpr int64_t kSumUnroll = 4;
/// The most rounds of forEachElement one iteration of its loop takes
/// (unrolled, so that their loads are in flight together).
inline constexpr int64_t kElementUnroll = 4;

/// A tile as the kernel sees it: its layout (TileLayout), the flat memref
/// in global memory (a kernel argument) or in workgroup memory that holds
/// it, and the offset of element 0 there (an index; null means 0).
struct Tile : TileLayout {
  Value buffer;
  Value offset;

  /// The element type stored in `buffer`.
  Type getStorageType() const { return storageType; }
  /// True when the tile lives in shared memory.
  bool isShared() const { return shared; }
};

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
  /// The linear index of this thread in its block (x fastest).
  Value getThreadId() const { return threadId; }
  /// `blockIdx` along `axis` (0 = x, 1 = y, 2 = z).
  Value blockId(unsigned axis) { return blockIds[axis]; }

  /// Runs `body(coords)` for every element of `shape`, the elements spread
  /// over the block's threads, then synchronises the block unless
  /// `synchronize` is false.
  void forEachElement(ArrayRef<int64_t> shape,
                      function_ref<void(ValueRange coords)> body,
                      bool synchronize = true);
  /// Runs `body(coords)` for every run of `width` consecutive elements along
  /// the last dimension of `shape` (`coords` is the run's first element; its
  /// last coordinate a multiple of `width`, which must divide the last
  /// dimension), the runs spread over the block's threads like the elements
  /// of forEachElement.
  void forEachRun(ArrayRef<int64_t> shape, int64_t width,
                  function_ref<void(ValueRange coords)> body,
                  bool synchronize = true);
  /// How values are combined: added, or their maximum taken.
  enum class Combine { Add, Max };
  /// `a` and `b` combined by `combine`.
  Value combine(Value a, Value b, Combine combine);
  /// The value combining with any other gives the other: 0, or -inf.
  Value identity(Combine combine);
  /// `width` f32 sums over `i < count`, run by every thread (not spread):
  /// sum `l` adds `terms(i)[l]` in increasing `i`. When `count` allows, each
  /// sum keeps kSumUnroll independent partials (unrolled, so their loads are
  /// in flight together; partial `u` takes the terms `i % kSumUnroll == u`)
  /// and adds them as `(p0 + p1) + (p2 + p3)`.
  SmallVector<Value, 8>
  sequentialSum(int64_t count, int64_t width,
                function_ref<SmallVector<Value, 8>(Value i)> terms,
                Combine combine = Combine::Add);
  /// The f32 sum of `values` added pairwise in a fixed order: ((v0 + v1) +
  /// (v2 + v3)) + ..., an odd value out carried to the next level.
  Value addPairwise(ArrayRef<Value> values) {
    return combinePairwise(values, Combine::Add);
  }
  /// addPairwise with `combine` in place of the addition.
  Value combinePairwise(ArrayRef<Value> values, Combine combine);
  /// The f32 `value` summed over each group of `lanes` consecutive lanes of
  /// the warp (a power of two, at most kWarpSize) by a butterfly of `shuffle
  /// xor` steps (offsets lanes / 2, ..., 2, 1): every lane of a group gets
  /// the same sum, added in the same order. Every lane of the warp must run
  /// it.
  Value warpSum(Value value, int64_t lanes = kWarpSize) {
    return warpCombine(value, lanes, Combine::Add);
  }
  /// warpSum with `combine` in place of the addition.
  Value warpCombine(Value value, int64_t lanes, Combine combine);
  /// The f32 `value` summed over each group of `lanes` consecutive threads
  /// of the block (a power of two): warpSum within the warp, then, for a
  /// group wider than a warp, one f32 per warp through `partials` (a shared
  /// tile of getNumThreads() / kWarpSize f32s; null when no group is wider)
  /// after a barrier, the group's warps added pairwise. Every thread of a
  /// group gets the same sum. Every thread of the block must run it.
  Value groupSum(Value value, int64_t lanes, const Tile *partials) {
    return groupCombine(value, lanes, partials, Combine::Add);
  }
  /// groupSum with `combine` in place of the addition (a row's maximum).
  Value groupCombine(Value value, int64_t lanes, const Tile *partials,
                     Combine combine);
  /// Threads per block.
  int64_t getNumThreads() const { return numThreads; }
  /// Synchronises the threads of the block.
  void barrier();

  /// Reads element `coords` of `tile` as f32.
  Value load(const Tile &tile, ValueRange coords);
  /// Reads element `coords` of `tile` at its storage type.
  Value loadStored(const Tile &tile, ValueRange coords);
  /// Reads the `width` elements of `tile` from `coords` on along the last
  /// dimension at their storage type, as one vector: one access when
  /// getVectorWidth(tile) allows, else element by element. The last
  /// coordinate must be a multiple of `width`.
  Value loadPacked(const Tile &tile, ValueRange coords, int64_t width);
  /// Writes `vector` (elements at the storage type of `tile`) from `coords`
  /// on along the last dimension: one access when getVectorWidth(tile)
  /// allows, else element by element. The last coordinate must be a
  /// multiple of the vector's width.
  void storePacked(const Tile &tile, ValueRange coords, Value vector);
  /// Reads the `width` elements of `tile` that broadcast to the run of a
  /// result of shape `shape` from `coords` on along the last dimension, as
  /// f32 (dimensions of size 1 repeat): one loadVector, or `width` copies of
  /// one element where the last dimension of `tile` is broadcast.
  SmallVector<Value, 8> loadBroadcastRun(const Tile &tile,
                                         ArrayRef<int64_t> shape,
                                         ValueRange coords, int64_t width);
  /// Reads the `width` elements of `tile` from `coords` on along the last
  /// dimension as f32, in vector accesses as wide as getVectorWidth(tile)
  /// allows. The last coordinate must be a multiple of `width`.
  SmallVector<Value, 8> loadVector(const Tile &tile, ValueRange coords,
                                   int64_t width);
  /// Rounds `value` to the storage type of `tile` and writes it at `coords`.
  void store(const Tile &tile, ValueRange coords, Value value);
  /// Rounds `values` to the storage type of `tile` and writes them from
  /// `coords` on along the last dimension, in vector accesses as wide as
  /// getVectorWidth(tile) allows. The last coordinate must be a multiple of
  /// the number of values.
  void storeVector(const Tile &tile, ValueRange coords, ValueRange values);
  /// Starts asynchronous copies (`cp.async`, kMaxVectorBytes each) of the
  /// elements of global tile `from` into shared tile `to` of the same shape,
  /// spread over the block's threads; `from` and `to` must allow vector
  /// accesses of kMaxVectorBytes (getVectorWidth) that divide their last
  /// dimension. The copies join the thread's next `cp.async` group.
  void copyAsync(const Tile &from, const Tile &to);
  /// Starts the copy by the TMA unit (`cp.async.bulk.tensor`, sm_90a) of
  /// the box at `coordinates` (i32, innermost dimension first) of the
  /// tensor that TMA descriptor `descriptor` (a generic pointer) describes
  /// into shared tile `to` from its element `at` on (the box's contiguous
  /// space there), whose bytes complete on the mbarrier `barrier` (a
  /// shared-memory pointer). One thread runs it.
  void copyTensor(Value descriptor, ValueRange coordinates, const Tile &to,
                  ValueRange at, Value barrier);
  /// Adds `term * factor` to the offset of `tile`.
  void addToOffset(Tile &tile, Value term, int64_t factor);
  /// The linear position of `coords` in `tile.buffer`, as an index (after
  /// the tile's swizzle).
  Value linearize(const Tile &tile, ValueRange coords);
  /// The coordinates of element `linear` of a row-major `shape`.
  SmallVector<Value, 4> delinearize(Value linear, ArrayRef<int64_t> shape);

  /// The shared-memory address of element 0 of shared tile `tile` (an i64,
  /// in the shared window).
  Value getSharedAddress(const Tile &tile);

  /// Takes the shared buffers of the kernel from `buffers` (the kernel
  /// schedule's), one per allocateShared, in order.
  void setSharedPlan(ArrayRef<SharedBuffer> buffers) { sharedPlan = buffers; }
  /// A new contiguous tile of `shape` in shared memory storing `type`,
  /// `alignment` bytes aligned (from the start of the dynamic shared memory),
  /// with swizzle `swizzle` (0: none; see TileLayout): the next buffer of
  /// the shared plan.
  Tile allocateShared(ArrayRef<int64_t> shape, Type type,
                      int64_t alignment = kMaxVectorBytes, int64_t swizzle = 0);
  /// True when every allocateShared matched the next buffer of the shared
  /// plan and every buffer was taken.
  bool followedSharedPlan() const {
    return !deviatedFromPlan && nextBuffer == sharedPlan.size();
  }

  /// `value` (f32) rounded to `type` and back, as storing it would.
  Value roundTo(Value value, Type type);
  /// Each of `values` (f32) rounded to `type` and back, two at a time by the
  /// chip's packed conversion (`cvt.rn.f16x2.f32`, `cvt.rn.bf16x2.f32`):
  /// the same values as `roundTo` of each, at half the conversions, which
  /// share the special-function unit with `ex2` and `rcp`.
  SmallVector<Value> roundTo(ValueRange values, Type type);

  /// An LLVM pointer to element `coords` of `tile`, in the buffer's address
  /// space (global or shared).
  Value getElementPointer(const Tile &tile, ValueRange coords);

private:
  OpBuilder builder;
  /// Where shared-memory views are created: after the kernel's prologue.
  OpBuilder entryBuilder;
  Location loc;
  int64_t numThreads;
  Value threadId;
  SmallVector<Value, 3> blockIds;
  Value sharedBase;
  ArrayRef<SharedBuffer> sharedPlan;
  size_t nextBuffer = 0;
  bool deviatedFromPlan = false;
};

/// Index arithmetic for the classes that emit the coordinates and addresses
/// of one op of a kernel (tensor-core matmuls), at the emitter's insertion
/// point: each helper creates one `arith` op on `index` values.
class IndexArithmetic {
protected:
  explicit IndexArithmetic(KernelEmitter &emitter)
      : emitter(emitter), builder(emitter.getBuilder()), loc(emitter.getLoc()) {
  }

  Value index(int64_t value) { return emitter.index(value); }
  Value add(Value x, Value y);
  /// `x + y`; `x` itself for 0.
  Value add(Value x, int64_t y);
  Value mul(Value x, int64_t y);
  Value div(Value x, int64_t y);
  Value rem(Value x, int64_t y);
  /// `x < y` (unsigned), an i1.
  Value less(Value x, int64_t y);

  KernelEmitter &emitter;
  OpBuilder &builder;
  Location loc;
};

/// The f32 result of elementwise function `kind` (`exp`, `add`, `mul_scalar`,
/// ...; ask an op with `getElementwiseKind(op)`) on f32 operands; `scalar` is
/// mul_scalar's factor.
Value emitElementwise(OpBuilder &builder, Location loc, ElementwiseKind kind,
                      ValueRange operands, double scalar);

/// `x / y` on f32 as the chip's `div.approx.f32` (at most 2 ulp while |y| <
/// 2^126, as Triton's and CUDA's fast division): the correctly rounded
/// division is a sequence of about ten instructions with a slow path, and
/// every result is rounded to f16 or bf16 (8 or 11 bits) or feeds a sum.
Value emitDivide(OpBuilder &builder, Location loc, Value x, Value y);

/// `exp(x - y)` on f32: a running maximum's rescaling factor, `x` the
/// maximum before a step and `y` after (exp(-inf) is 0, so the first step
/// scales the zero sums by 0).
Value emitExpOfDifference(OpBuilder &builder, Location loc, Value x, Value y);

/// The factor `1 / sqrt(sum / size + eps)` by which rms_norm scales a group
/// of `size` elements whose squares add up to `sum` (f32).
Value emitRmsFactor(OpBuilder &builder, Location loc, Value sum, int64_t size,
                    double eps);

} // namespace mlir::mirage

#endif // MIRAGE_LIB_CONVERSION_BLOCKTOGPU_KERNELEMITTER_H
