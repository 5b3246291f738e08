//===- SumShapes.h - How a block's threads share sums and runs --*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The geometry of the SIMT work of a generated kernel as pure functions of
// layouts and shapes: how many consecutive elements elementwise work takes
// at once, how long sums are grouped and split over the threads. The kernel
// schedule sizes the sums' shared memory with them and the code generator
// emits by them.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_ANALYSIS_SUMSHAPES_H
#define MIRAGE_ANALYSIS_SUMSHAPES_H

#include "Mirage/Analysis/TileLayout.h"

namespace mlir::mirage {

/// The most consecutive elements along the last dimension of `shape` that
/// elementwise work takes at once (a run): kMaxVectorBytes of the widest of
/// `types`, halved until it divides the last dimension and `groupSize`
/// (0: any).
int64_t getRunWidth(ArrayRef<int64_t> shape, ArrayRef<Type> types,
                    int64_t groupSize = 0);

/// How many slices of a sum's terms a block of `threads` threads splits over
/// its threads, for `groups` groups of `terms` terms each read in runs of
/// `termRun`: enough (slice, group) pairs to give every thread two, each
/// slice at least 32 terms long and a multiple of `termRun` terms.
int64_t getSumSlices(int64_t groups, int64_t terms, int64_t threads,
                     int64_t termRun);

/// How many threads share each of `groups` for-loop sums of `runs` runs of
/// terms when every thread keeps its own partial sum through the loop (lane
/// partials): the most that divides `runs` and leaves `groups` times it at
/// most `threads`; 0 when `groups` exceeds `threads`.
int64_t getLanePartialCount(int64_t groups, int64_t runs, int64_t threads);

/// How many consecutive result elements along the last dimension a sum of
/// result shape `shape` groups when it reads them from `operand`: as many as
/// one vector access of `operand` allows, if that leaves at most one group
/// per thread (of `threads`), else 1; 1 without `vectorSums`.
int64_t getSumWidth(const TileLayout &operand, ArrayRef<int64_t> shape,
                    int64_t threads, bool vectorSums);

/// The most consecutive terms of a sum over the last dimension of `in`
/// (terms consecutive there) that one vector access reads, at most
/// kMaxVectorBytes, dividing `terms` and the last dimension.
int64_t getTermRun(const TileLayout &in, int64_t terms);

} // namespace mlir::mirage

#endif // MIRAGE_ANALYSIS_SUMSHAPES_H
