//===- MatmulShapes.h - How a block's threads share a matmul ----*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The geometry of the tensor-core matmuls of a generated kernel, as pure
// functions of element types, shapes and thread counts: when a matmul runs
// on `mma.sync` or `wgmma`, how the warps split it, the f32 registers a thread
// keeps, and the geometry of two matmuls chained in registers. The kernel
// schedule decides with them and the code generator emits by them.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_ANALYSIS_MATMULSHAPES_H
#define MIRAGE_ANALYSIS_MATMULSHAPES_H

#include "Mirage/Analysis/TileLayout.h"

namespace mlir::mirage {

//===----------------------------------------------------------------------===//
// Element types
//===----------------------------------------------------------------------===//

/// True when the tensor cores (`mma.sync`, `wgmma`) multiply elements of
/// `type`, with f32 sums: f16 and bf16. One instruction multiplies operands
/// of one such type; f16 by bf16 operands stay off the tensor cores.
bool isTensorCoreElementType(Type type);

//===----------------------------------------------------------------------===//
// mma.sync
//===----------------------------------------------------------------------===//

/// The shape of one `mma.sync`.
inline constexpr int64_t kTileM = 16, kTileN = 8, kTileK = 16;

/// The grid of 16x8 result tiles: batch dimensions, row tiles, column tiles.
SmallVector<int64_t, 4> getTileGrid(ArrayRef<int64_t> shape);

/// How many slices of the contracting dimension the warps split between
/// them: 1 when every warp has a tile, else the most (a power of two) that
/// keeps every warp to at most one (tile, slice) item and divides the
/// 16-element steps.
int64_t getSlices(int64_t tiles, int64_t warps, int64_t depth);

/// The slices of the `mma.sync` matmul of result `shape` contracting `depth`
/// elements in blocks of `numThreads` threads (getSlices).
int64_t getTensorCoreSlices(ArrayRef<int64_t> shape, int64_t depth,
                            int64_t numThreads);

/// True when a block matmul of `lhsType` by `rhsType` elements, contracting
/// `depth` elements, of result shape `shape` runs on tensor cores in blocks
/// of `numThreads` threads (whole warps): operands of one tensor-core
/// element type (isTensorCoreElementType), a contracting
/// dimension of whole 16-element steps and whole 8-column tiles, any number
/// of result rows (rows past the end of a 16-row tile read zeros: a GEMV of
/// one or two rows wastes most of the tensor cores' work but still beats the
/// SIMT path, whose sums take many more instructions).
bool canUseTensorCores(Type lhsType, Type rhsType, int64_t depth,
                       ArrayRef<int64_t> shape, int64_t numThreads);

/// The f32 registers a thread keeps for a for-loop sum of `mma.sync`
/// matmuls of result `shape` contracting `depth` elements per iteration: 4
/// per item of its warp.
int64_t getTensorCoreSumRegisters(int64_t depth, ArrayRef<int64_t> shape,
                                  int64_t numThreads);

//===----------------------------------------------------------------------===//
// wgmma
//===----------------------------------------------------------------------===//

/// Threads per warpgroup.
inline constexpr int64_t kWarpgroupSize = 4 * kWarpSize;
/// The rows of one wgmma tile (the instruction's M).
inline constexpr int64_t kWarpgroupTileRows = 64;
/// The contracting elements of one wgmma (K) and the step of its N.
inline constexpr int64_t kWarpgroupDepthStep = 16, kWarpgroupColumnStep = 8;
/// The largest N of one wgmma.
inline constexpr int64_t kWarpgroupMaxColumns = 128;
/// The most f32 sums per thread a warpgroup matmul keeps.
inline constexpr int64_t kWarpgroupMaxRegisters = 128;
/// The 8x8 core matrices of the K-major operand layout.
inline constexpr int64_t kCoreRows = 8, kCoreColumns = 8;

/// The shape of the wgmma work of a block matmul of result `shape`,
/// contracting `depth` elements, in blocks of `numThreads` threads: which
/// operand gives the 64-row tiles, the padded extents, the columns of one
/// instruction, and the items (one 64-row tile by one column chunk) of each
/// warpgroup.
struct WarpgroupPlan {
  WarpgroupPlan(int64_t depth, ArrayRef<int64_t> shape, int64_t numThreads);

  /// The f32 sums each thread holds for all of its warpgroup's items.
  int64_t getNumRegisters() const { return itemsPerWarpgroup * columns / 2; }
  /// The shape of the K-major copy of an operand of `paddedRows` rows:
  /// `[batch..., paddedRows / 8, depth / 8, 8, 8]` elements of the
  /// operands' 16-bit type.
  SmallVector<int64_t, 6> getPackedShape(int64_t paddedRows) const;

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
/// `numThreads` threads: operands of one tensor-core element type
/// (isTensorCoreElementType), whole 16-element steps of the
/// contracting dimension, whole warpgroups, and at most 128 f32 sums per
/// thread.
bool canUseWarpgroupMatmul(Type lhsType, Type rhsType, int64_t depth,
                           ArrayRef<int64_t> shape, int64_t numThreads);

//===----------------------------------------------------------------------===//
// Register chains
//===----------------------------------------------------------------------===//

/// True when `E x C`, for `E = f(A x B)` of `intermediateShape` from
/// `depth`-element dot products and C of `columns` columns, can keep E in
/// registers (ChainShape): A and B of one tensor-core element type
/// (isTensorCoreElementType), E and C of one (E is packed at its own type),
/// whole 16-row strips (or fewer than 16 rows: one strip per batch index,
/// its rows past the end computed and dropped) and 16-element steps, and
/// strips that the warps share evenly.
bool canChainMatmuls(Type lhsType, Type rhsType, Type intermediateType,
                     Type productRhsType, ArrayRef<int64_t> intermediateShape,
                     int64_t depth, int64_t columns, int64_t numThreads);

/// The strips of a register chain's E of `intermediateShape`: 16 rows at
/// one batch index each, the last of a batch index's possibly fewer.
int64_t getNumStrips(ArrayRef<int64_t> intermediateShape);

/// How the warps of a block share a register chain: E's 16-row strips (a
/// strip of fewer rows where E has fewer), split into slices of its columns
/// when there are fewer strips than warps.
struct ChainShape {
  /// For E of `intermediateShape`, a product of `columns` columns, blocks of
  /// `numThreads` threads, E's row sums if `rowSums`, and a running maximum
  /// of its rows if `runningMax`.
  ChainShape(ArrayRef<int64_t> intermediateShape, int64_t columns,
             int64_t numThreads, bool rowSums, bool runningMax = false);

  /// The registers of one strip's product: 4 per 16x8 tile.
  int64_t getProductRegisters() const { return 4 * (columns / kTileN); }
  /// The f32 registers each thread carries through the loop: every strip's
  /// product, then every strip's 2 row sums and 2 maxima (rows g and g + 8)
  /// if kept.
  int64_t getNumRegisters() const {
    return stripsPerWarp *
           (getProductRegisters() + (rowSums ? 2 : 0) + (runningMax ? 2 : 0));
  }
  /// The first register of the product, the row sums and the maxima of the
  /// warp's strip of round `round`.
  int64_t getProductBase(int64_t round) const {
    return round * getProductRegisters();
  }
  int64_t getRowSumBase(int64_t round) const {
    return stripsPerWarp * getProductRegisters() + 2 * round;
  }
  int64_t getMaxBase(int64_t round) const {
    return stripsPerWarp * (getProductRegisters() + (rowSums ? 2 : 0)) +
           2 * round;
  }
  /// The f32 registers of the scores of one strip's slice of keys, all held
  /// at once by a chain with a running maximum: 4 per 16x8 tile.
  int64_t getScoreRegisters() const { return 4 * (keysPerSlice / kTileN); }
  /// The registers of a thread's lhs fragments of A for `depth`-element dot
  /// products (4 per 16 x 16 fragment, one per strip and step of `depth`).
  int64_t getLhsRegisters(int64_t depth) const {
    return stripsPerWarp * (depth / kTileK) * 4;
  }

  int64_t columns;
  bool rowSums, runningMax;
  int64_t warps, strips, slices, stripsPerWarp, keysPerSlice;
};

} // namespace mlir::mirage

#endif // MIRAGE_ANALYSIS_MATMULSHAPES_H
