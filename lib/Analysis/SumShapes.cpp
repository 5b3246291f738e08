//===- SumShapes.cpp - How a block's threads share sums and runs ----------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Analysis/SumShapes.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::mirage;

/// The shortest slice of a sum a thread adds up on its own.
static constexpr int64_t kMinSliceLength = 32;

int64_t mlir::mirage::getRunWidth(ArrayRef<int64_t> shape, ArrayRef<Type> types,
                                  int64_t groupSize) {
  int64_t widestBytes = 1;
  for (Type type : types)
    widestBytes =
        std::max<int64_t>(widestBytes, type.getIntOrFloatBitWidth() / 8);
  // groupSize 0 is a multiple of every width.
  return getGroupWidth(
      getGroupWidth(kMaxVectorBytes / widestBytes, shape.back()), groupSize);
}

int64_t mlir::mirage::getSumSlices(int64_t groups, int64_t terms,
                                   int64_t threads, int64_t termRun) {
  int64_t slices = 1;
  while (groups * slices < 2 * threads && terms % (2 * slices * termRun) == 0 &&
         terms / (2 * slices) >= kMinSliceLength)
    slices *= 2;
  return slices;
}

int64_t mlir::mirage::getLanePartialCount(int64_t groups, int64_t runs,
                                          int64_t threads) {
  if (groups > threads)
    return 0;
  int64_t lanes = std::min(runs, threads / groups);
  while (runs % lanes != 0)
    --lanes;
  return lanes;
}

int64_t mlir::mirage::getSumWidth(const TileLayout &operand,
                                  ArrayRef<int64_t> shape, int64_t threads,
                                  bool vectorSums) {
  if (!vectorSums)
    return 1;
  int64_t width = getGroupWidth(getVectorWidth(operand), shape.back());
  // More groups than threads would give a thread several groups' partials
  // at once (after unrolling): ptxas then spills the larger attention
  // kernels.
  return getNumElements(shape) / width <= threads ? width : 1;
}

int64_t mlir::mirage::getTermRun(const TileLayout &in, int64_t terms) {
  if (in.strides.back() != 1)
    return 1;
  int64_t run = kMaxVectorBytes / in.getElementBytes();
  return getGroupWidth(getGroupWidth(run, terms), in.shape.back());
}
