//===- WarpItems.h - The mma.sync work of a block's warps -------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// How the warps of a block share a matmul on `mma.sync.m16n8k16` tensor
// cores, and the fragments they load. The fragments of
// `mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32` (PTX ISA, "Matrix
// Fragments for mma.m16n8k16"; the same for `.bf16`), for lane `l` of a
// warp, g = l / 4 and t = l % 4:
//   A (16x16, row): {a0,a1} = A[g][2t..2t+1], {a2,a3} = A[g+8][2t..2t+1],
//                   {a4,a5} = A[g][2t+8..], {a6,a7} = A[g+8][2t+8..];
//   B (16x8, col):  {b0,b1} = B[2t..2t+1][g], {b2,b3} = B[2t+8..2t+9][g];
//   C (16x8, f32):  {c0,c1} = C[g][2t..2t+1], {c2,c3} = C[g+8][2t..2t+1].
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_LIB_CONVERSION_BLOCKTOGPU_WARPITEMS_H
#define MIRAGE_LIB_CONVERSION_BLOCKTOGPU_WARPITEMS_H

#include "KernelEmitter.h"
#include "Mirage/Analysis/MatmulShapes.h"

namespace mlir::mirage {

/// The work of the warps on a result of `shape`: item `i` is the 16x8 tile
/// `i % tiles` (column tiles fastest) over slice `i / tiles` of the
/// contracting dimension, and warp `w` takes items `w`, `w + warps`, ....
/// Emits this lane's fragment coordinates and the `mma.sync` steps of an
/// item.
class WarpItems : IndexArithmetic {
public:
  /// For a result of `shape` contracting `depth` elements, split into
  /// `slices` slices (0: getSlices's choice).
  WarpItems(KernelEmitter &emitter, ArrayRef<int64_t> shape, int64_t depth,
            int64_t slices = 0);

  int64_t getNumItems() const { return tiles * slices; }
  int64_t getNumSlices() const { return slices; }
  int64_t getNumWarps() const { return warps; }
  /// This warp's first item.
  Value getWarp() const { return warp; }
  /// Emits `body(item)` for this warp's item of round `round`
  /// (emitItemOfRound).
  SmallVector<Value> forRound(int64_t round, ValueRange fallback,
                              function_ref<SmallVector<Value>(Value)> body);

  /// `sums` (c0..c3) plus the item's product of lhs and rhs over its slice.
  SmallVector<Value, 4> accumulate(Value item, const Tile &lhs, const Tile &rhs,
                                   ValueRange sums);
  /// The item's f32 `sums` (c0..c3) with its rows g (c0, c1) and g + 8
  /// (c2, c3) multiplied by `factor(batch, row)`; a row past the end takes
  /// the last row's factor (the stores drop it).
  SmallVector<Value, 4>
  scaleRows(Value item, ValueRange sums,
            function_ref<Value(ValueRange batch, Value row)> factor);
  /// Stores the item's f32 `sums`, rounded to the storage type of `out`,
  /// into `out`: the result itself (one slice) or the partial sums
  /// `[slices, shape...]`.
  void store(Value item, ValueRange sums, const Tile &out);
  /// Emits a loop running `body` on every item of this warp.
  void forEachItem(function_ref<void(Value item)> body);

  /// Sets the 16x8 tile whose fragments the loads below address: batch
  /// coordinates `batch`, first row `tileRow`, first column `tileColumn`.
  void setTile(ValueRange batch, Value tileRow, Value tileColumn);
  /// The A registers of the 16x16 lhs slice from column `k` of the tile's
  /// rows: a0..a3 of the PTX ISA's fragment layout. A row past the end
  /// holds the last row, or zeros: the product rows it makes are past the
  /// end too, and the stores drop them.
  SmallVector<Value, 4> loadLhs(const Tile &lhs, Value k);
  /// The B registers of the 16x8 rhs slice from row `k` of the tile's
  /// columns.
  SmallVector<Value, 2> loadRhs(const Tile &rhs, Value k);
  /// The B registers of the 16x8 rhs slices from row `k` of the tile's
  /// columns and of the 8 columns after them (b0, b1 of each): one
  /// `ldmatrix.x4` where loadRhs's takes two matrices.
  SmallVector<Value, 4> loadRhsTiles(const Tile &rhs, Value k);
  /// `sums` (c0..c3) plus the product of the fragments `a` and `b`, at the
  /// element type of their registers (f16 or bf16).
  SmallVector<Value, 4> mma(ValueRange a, ValueRange b, ValueRange sums);
  /// `{lo, hi}` (f16 or bf16) as a vector of 2, an A or B register.
  Value pack(Value lo, Value hi);

private:
  /// Sets slice, batch, tileRow and tileColumn for `item`.
  void decode(Value item);
  /// True when every row of the upper (rows 0-7) or lower (rows 8-15) half
  /// of every row tile is inside the result.
  bool isAlwaysInside(bool lowerHalf) const {
    int64_t tail = rows % kTileM;
    return tail == 0 || (!lowerHalf && tail >= kTileM / 2);
  }
  /// A register of zeros of `elementType`, for the lower half of a tile of
  /// 8 rows or fewer.
  Value zeroPair(Type elementType);
  /// The A register of row `row` and columns `column`, `column + 1` of lhs
  /// (of the last row for a row past the end, as loadLhs); `lowerHalf`:
  /// `row` is in rows 8-15 of its tile.
  Value loadLhsPair(const Tile &lhs, Value row, bool lowerHalf, Value column);
  /// The B register of rows `row`, `row + 1` and column `column` of rhs.
  Value loadRhsPair(const Tile &rhs, Value row, Value column);
  /// loadRhs of the 8 columns from `column`, one pair of elements at a time.
  SmallVector<Value, 2> loadRhsPairs(const Tile &rhs, Value k, Value column);
  /// Adds the product of the 16-column slice of lhs from `k` and the
  /// 16-row slice of rhs from `k` to `sums` (c0..c3).
  SmallVector<Value, 4> step(const Tile &lhs, const Tile &rhs, Value k,
                             ValueRange sums);
  /// Whether ldmatrix can read the fragments of `tile`: rows of 8 elements
  /// at 16-byte aligned addresses in shared memory.
  static bool canLoadMatrices(const Tile &tile);
  /// `ldmatrix` of `count` 8x8 matrices (transposed if `transpose`), lane l
  /// addressing row `row` at column `column` of `tile`; the i32 registers
  /// as vectors of 2 elements of the tile's 16-bit type.
  SmallVector<Value, 4> loadMatrices(const Tile &tile, Value row, Value column,
                                     int32_t count, bool transpose);

  SmallVector<int64_t, 4> shape, tileGrid;
  int64_t tiles, warps, slices, depth, rows;
  /// This lane's fragment coordinates: lane, warp, g and 2t.
  Value lane, warp, group, pairColumn;
  /// The decoded item: its slice, batch coordinates, first row and column.
  Value slice, tileRow, tileColumn;
  SmallVector<Value, 2> batch;
};

/// Writes the f32 sums of every item into `out`, mapped by `epilogue` (if
/// given; several sums of an item at a time) and rounded to its storage type,
/// adding the slices' partial sums in slice order through shared memory when
/// the warps split the contracting dimension; then synchronises the block.
/// `forEachItemSums(store)` emits the sums of each of this warp's items and
/// calls `store(item, sums)` on them.
void storeResults(
    KernelEmitter &emitter, WarpItems &items, const Tile &out,
    function_ref<void(function_ref<void(Value, ValueRange)>)> forEachItemSums,
    function_ref<SmallVector<Value>(ValueRange sums)> epilogue = nullptr);

} // namespace mlir::mirage

#endif // MIRAGE_LIB_CONVERSION_BLOCKTOGPU_WARPITEMS_H
