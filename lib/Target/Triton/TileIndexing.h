//===- TileIndexing.h - Padded tiles and their Python spelling --*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Triton tensors have power-of-two dimensions and `tl.dot` needs at least 16
// along M, N and K, so every tile of a block graph lives in registers padded:
// a dimension of 1 stays 1 (it broadcasts), any other becomes the next power
// of two, at least 16. The padding lanes hold unspecified values; masks keep
// them out of loads, stores, sums and dot products (docs/Triton.md).
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_LIB_TARGET_TRITON_TILEINDEXING_H
#define MIRAGE_LIB_TARGET_TRITON_TILEINDEXING_H

#include "mlir/IR/Types.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"

#include <string>

namespace mlir::mirage::triton {

/// The padded extent of a tile dimension of `extent` elements that may be
/// an M, N or K of `tl.dot`: 1 stays 1, any other extent becomes the next
/// power of two, at least 16.
int64_t paddedExtent(int64_t extent);

/// The padded extent of dimension `dim` of a rank-`rank` tile: the last two
/// dimensions as paddedExtent, a leading (batch) dimension to the next power
/// of two only, since `tl.dot` needs 16 along M, N and K alone.
int64_t paddedExtent(int64_t extent, unsigned dim, unsigned rank);

/// The padded shape of a tile of `shape`.
SmallVector<int64_t> paddedShape(ArrayRef<int64_t> shape);

/// The row-major strides of a dense tensor of `shape`.
SmallVector<int64_t> rowMajorStrides(ArrayRef<int64_t> shape);

/// A Python tuple literal: `(16, 32)`, `(16,)`.
std::string tupleLiteral(ArrayRef<int64_t> values);

/// The 1-D tensor expression `expr` viewed as dimension `dim` of a rank-`rank`
/// tensor: `expr[None, :]` for dim 1 of rank 2; `expr` itself for rank 1.
std::string alongDim(StringRef expr, unsigned dim, unsigned rank);

/// `tl.arange(0, extent)`.
std::string laneRange(int64_t extent);

/// The mask `(tl.arange(0, P) < n)` along `dim` of a tile of `shape`, or an
/// empty string when that dimension has no padding.
std::string dimMask(ArrayRef<int64_t> shape, unsigned dim);

/// The conjunction of dimMask over `dims` of a tile of `shape`; empty when
/// none of them has padding.
std::string tileMask(ArrayRef<int64_t> shape, ArrayRef<unsigned> dims);

/// tileMask over every dimension.
std::string tileMask(ArrayRef<int64_t> shape);

/// `tl.where(mask, expr, fill)`, or `expr` when `mask` is empty.
std::string masked(StringRef mask, StringRef expr, StringRef fill = "0.0");

/// The Triton dtype of element type `type`: `tl.float16`, `tl.bfloat16` or
/// `tl.float32`.
std::string tritonDType(Type type);

/// The torch dtype of element type `type`: `torch.float16`, ...
std::string torchDType(Type type);

/// A Python float literal that reads back as `value`.
std::string floatLiteral(double value);

/// `expr * factor`, simplified for factors 0 and 1 (an empty string for 0).
std::string scaled(StringRef expr, int64_t factor);

/// The sum of the non-empty `terms`, or "0" when there is none.
std::string sumOf(ArrayRef<std::string> terms);

} // namespace mlir::mirage::triton

#endif // MIRAGE_LIB_TARGET_TRITON_TILEINDEXING_H
