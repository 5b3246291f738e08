//===- TileLayout.h - Where the elements of a tile lie ----------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The layout of a tile of a generated kernel (its shape, strides, storage
// type, alignment, swizzle and blocking) without the values that address it,
// so that the kernel schedule can reason about vector accesses before any IR
// exists. The code generator's `Tile` is a layout plus its buffer and offset.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_ANALYSIS_TILELAYOUT_H
#define MIRAGE_ANALYSIS_TILELAYOUT_H

#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::mirage {

/// The widest vector access of a generated kernel, in bytes. Buffers are at
/// least this aligned: kernel arguments by the runtime's contract, shared
/// memory by the kernel schedule's allocation.
inline constexpr int64_t kMaxVectorBytes = 16;
/// Threads per warp.
inline constexpr int64_t kWarpSize = 32;
/// The bytes whose 128-byte lines a swizzle permutes as a whole, and the
/// alignment of a swizzled buffer.
inline constexpr int64_t kSwizzleAlignment = 1024;
/// The widest swizzle span, in bytes (a line of kSwizzleAlignment / 8).
inline constexpr int64_t kMaxSwizzle = 128;

/// A tile's layout: element `c` lies at `offset + sum_k c[k] * strides[k]`
/// of a flat buffer of `storageType` elements, in global or shared memory.
struct TileLayout {
  SmallVector<int64_t, 4> shape;
  SmallVector<int64_t, 4> strides;
  /// The element type stored in the buffer.
  Type storageType;
  /// True when the buffer is in shared memory.
  bool shared = false;
  /// A number of elements that the offset is known to be a multiple of (a
  /// large power of two while there is no offset).
  int64_t offsetAlignment = int64_t(1) << 40;
  /// 0, or the swizzle of a shared tile (32, 64 or 128): the 16-byte chunk
  /// `c` of 128-byte line `l` of the buffer holds chunk `c ^ (l % (swizzle /
  /// 16))` (the layout in which TMA's CU_TENSOR_MAP_SWIZZLE_<swizzle>B writes
  /// boxes whose rows are `swizzle` bytes), so that the same chunk of
  /// consecutive rows lies in different memory banks. The buffer starts at a
  /// multiple of kSwizzleAlignment bytes and holds whole multiples of it.
  int64_t swizzle = 0;
  /// 0, or the extent of the blocks in which dimension `blockedDim` is
  /// stored: coordinate `c` of it lies at `(c / blockExtent) * blockStride +
  /// (c % blockExtent) * strides[blockedDim]` (blockLastDimension).
  int64_t blockExtent = 0;
  int64_t blockStride = 0;
  unsigned blockedDim = 0;

  /// The bytes of one stored element.
  int64_t getElementBytes() const {
    return storageType.getIntOrFloatBitWidth() / 8;
  }
};

/// The shape of tile or tensor `value`.
inline ArrayRef<int64_t> getShape(Value value) {
  return cast<ShapedType>(value.getType()).getShape();
}

/// The element type of tile or tensor `value`.
inline Type getElementType(Value value) {
  return cast<ShapedType>(value.getType()).getElementType();
}

/// The row-major strides of `shape`.
SmallVector<int64_t, 4> getContiguousStrides(ArrayRef<int64_t> shape);

/// The elements of `shape`.
int64_t getNumElements(ArrayRef<int64_t> shape);

/// Lays out the dimensions of contiguous tile `tile` from `firstInner` on in
/// blocks of `extent` consecutive coordinates of the last dimension (which
/// `extent` divides), each block row-major, the blocks one after another in
/// the space of those dimensions: how TMA writes a tile in boxes of
/// `extent` columns (so that each box's rows are one swizzle span). The
/// dimensions before `firstInner` keep their strides.
void blockLastDimension(TileLayout &tile, int64_t extent, unsigned firstInner);

/// The most consecutive elements along the last dimension of `tile` that one
/// aligned vector access of at most kMaxVectorBytes can read or write, from
/// any position whose last coordinate is a multiple of it: a power of two
/// dividing the tile's offset alignment and its strides other than the last,
/// which must be 1. 1 when the tile allows no vector access.
int64_t getVectorWidth(const TileLayout &tile);

/// `width` (a power of two) halved until it divides `extent`: how many
/// consecutive elements along a last dimension go together.
inline int64_t getGroupWidth(int64_t width, int64_t extent) {
  while (extent % width != 0)
    width /= 2;
  return width;
}

} // namespace mlir::mirage

#endif // MIRAGE_ANALYSIS_TILELAYOUT_H
