//===- MatmulShapes.cpp - How a block's threads share a matmul ------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Analysis/MatmulShapes.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::mirage;

//===----------------------------------------------------------------------===//
// Element types
//===----------------------------------------------------------------------===//

bool mlir::mirage::isTensorCoreElementType(Type type) {
  return type.isF16() || type.isBF16();
}

/// True when one tensor-core instruction multiplies `lhsType` by `rhsType`.
static bool isTensorCorePair(Type lhsType, Type rhsType) {
  return lhsType == rhsType && isTensorCoreElementType(lhsType);
}

//===----------------------------------------------------------------------===//
// mma.sync
//===----------------------------------------------------------------------===//

SmallVector<int64_t, 4> mlir::mirage::getTileGrid(ArrayRef<int64_t> shape) {
  SmallVector<int64_t, 4> grid(shape.drop_back(2));
  grid.push_back(llvm::divideCeil(shape[shape.size() - 2], kTileM));
  grid.push_back(shape.back() / kTileN);
  return grid;
}

int64_t mlir::mirage::getSlices(int64_t tiles, int64_t warps, int64_t depth) {
  int64_t slices = 1;
  while (tiles * slices * 2 <= warps && (depth / kTileK) % (slices * 2) == 0)
    slices *= 2;
  return slices;
}

int64_t mlir::mirage::getTensorCoreSlices(ArrayRef<int64_t> shape,
                                          int64_t depth, int64_t numThreads) {
  return getSlices(getNumElements(getTileGrid(shape)), numThreads / kWarpSize,
                   depth);
}

bool mlir::mirage::canUseTensorCores(Type lhsType, Type rhsType, int64_t depth,
                                     ArrayRef<int64_t> shape,
                                     int64_t numThreads) {
  return isTensorCorePair(lhsType, rhsType) && depth % kTileK == 0 &&
         shape.back() % kTileN == 0 && numThreads % kWarpSize == 0;
}

int64_t mlir::mirage::getTensorCoreSumRegisters(int64_t depth,
                                                ArrayRef<int64_t> shape,
                                                int64_t numThreads) {
  int64_t warps = numThreads / kWarpSize;
  int64_t tiles = getNumElements(getTileGrid(shape));
  return 4 * llvm::divideCeil(tiles * getSlices(tiles, warps, depth), warps);
}

//===----------------------------------------------------------------------===//
// wgmma
//===----------------------------------------------------------------------===//

WarpgroupPlan::WarpgroupPlan(int64_t depth, ArrayRef<int64_t> shape,
                             int64_t numThreads)
    : batchShape(shape.drop_back(2)), batch(1), depth(depth) {
  for (int64_t extent : batchShape)
    batch *= extent;
  int64_t rows = shape[shape.size() - 2], cols = shape.back();
  auto work = [](int64_t a, int64_t b) {
    return llvm::alignTo(a, kWarpgroupTileRows) *
           llvm::alignTo(b, kWarpgroupColumnStep);
  };
  swapped = work(cols, rows) < work(rows, cols);
  rowsA = swapped ? cols : rows;
  rowsB = swapped ? rows : cols;
  paddedRowsA = llvm::alignTo(rowsA, kWarpgroupTileRows);
  paddedRowsB = llvm::alignTo(rowsB, kWarpgroupColumnStep);
  chunks = llvm::divideCeil(paddedRowsB, kWarpgroupMaxColumns);
  while ((paddedRowsB / kWarpgroupColumnStep) % chunks != 0)
    ++chunks;
  columns = paddedRowsB / chunks;
  items = batch * (paddedRowsA / kWarpgroupTileRows) * chunks;
  warpgroups = std::max<int64_t>(1, numThreads / kWarpgroupSize);
  itemsPerWarpgroup = llvm::divideCeil(items, warpgroups);
}

SmallVector<int64_t, 6>
WarpgroupPlan::getPackedShape(int64_t paddedRows) const {
  SmallVector<int64_t, 6> shape(batchShape.begin(), batchShape.end());
  shape.append(
      {paddedRows / kCoreRows, depth / kCoreColumns, kCoreRows, kCoreColumns});
  return shape;
}

bool mlir::mirage::canUseWarpgroupMatmul(Type lhsType, Type rhsType,
                                         int64_t depth, ArrayRef<int64_t> shape,
                                         int64_t numThreads) {
  return isTensorCorePair(lhsType, rhsType) &&
         depth % kWarpgroupDepthStep == 0 && numThreads % kWarpgroupSize == 0 &&
         WarpgroupPlan(depth, shape, numThreads).getNumRegisters() <=
             kWarpgroupMaxRegisters;
}

//===----------------------------------------------------------------------===//
// Register chains
//===----------------------------------------------------------------------===//

int64_t mlir::mirage::getNumStrips(ArrayRef<int64_t> intermediateShape) {
  int64_t rows = intermediateShape[intermediateShape.size() - 2];
  return getNumElements(intermediateShape.drop_back(2)) *
         llvm::divideCeil(rows, kTileM);
}

bool mlir::mirage::canChainMatmuls(Type lhsType, Type rhsType,
                                   Type intermediateType, Type productRhsType,
                                   ArrayRef<int64_t> intermediateShape,
                                   int64_t depth, int64_t columns,
                                   int64_t numThreads) {
  if (!isTensorCorePair(lhsType, rhsType) ||
      !isTensorCorePair(intermediateType, productRhsType) ||
      intermediateShape.size() < 2 || numThreads % kWarpSize != 0 ||
      depth % kTileK != 0 || columns % kTileN != 0)
    return false;
  int64_t rows = intermediateShape[intermediateShape.size() - 2];
  int64_t keySteps = intermediateShape.back() / kTileK;
  if ((rows % kTileM != 0 && rows > kTileM) ||
      intermediateShape.back() % kTileK != 0)
    return false;
  int64_t strips = getNumStrips(intermediateShape);
  int64_t warps = numThreads / kWarpSize;
  if (strips % warps == 0)
    return true;
  return warps % strips == 0 && keySteps % (warps / strips) == 0;
}

ChainShape::ChainShape(ArrayRef<int64_t> intermediateShape, int64_t columns,
                       int64_t numThreads, bool rowSums, bool runningMax)
    : columns(columns), rowSums(rowSums), runningMax(runningMax),
      warps(numThreads / kWarpSize), strips(getNumStrips(intermediateShape)) {
  slices = strips < warps ? warps / strips : 1;
  stripsPerWarp = strips * slices / warps;
  keysPerSlice = intermediateShape.back() / slices;
}
