//===- TileLayout.cpp - Where the elements of a tile lie ------------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Analysis/TileLayout.h"

#include <numeric>

using namespace mlir;
using namespace mlir::mirage;

SmallVector<int64_t, 4>
mlir::mirage::getContiguousStrides(ArrayRef<int64_t> shape) {
  SmallVector<int64_t, 4> strides(shape.size(), 1);
  for (int64_t k = static_cast<int64_t>(shape.size()) - 2; k >= 0; --k)
    strides[k] = strides[k + 1] * shape[k + 1];
  return strides;
}

int64_t mlir::mirage::getNumElements(ArrayRef<int64_t> shape) {
  return std::accumulate(shape.begin(), shape.end(), int64_t(1),
                         std::multiplies<>());
}

void mlir::mirage::blockLastDimension(TileLayout &tile, int64_t extent,
                                      unsigned firstInner) {
  SmallVector<int64_t, 4> block(ArrayRef(tile.shape).drop_front(firstInner));
  block.back() = extent;
  SmallVector<int64_t, 4> inner = getContiguousStrides(block);
  std::copy(inner.begin(), inner.end(), tile.strides.begin() + firstInner);
  tile.blockExtent = extent;
  tile.blockStride = getNumElements(block);
  tile.blockedDim = tile.shape.size() - 1;
}

int64_t mlir::mirage::getVectorWidth(const TileLayout &tile) {
  if (tile.strides.empty() || tile.strides.back() != 1)
    return 1;
  int64_t width =
      std::gcd(kMaxVectorBytes / tile.getElementBytes(), tile.offsetAlignment);
  for (int64_t stride : ArrayRef(tile.strides).drop_back())
    width = std::gcd(width, stride);
  if (tile.blockExtent != 0)
    width = std::gcd(width, std::gcd(tile.blockExtent, tile.blockStride));
  return width;
}
