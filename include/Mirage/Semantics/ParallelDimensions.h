//===- ParallelDimensions.h - Checking at reduced sizes ---------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A dimension of a reference's output is *parallel* when every op computes
// each index of it from the same index of its operands alone, by the same
// function for every index: attention's heads and query rows, a projection's
// rows and columns. A candidate that splits such a dimension among blocks,
// `t` indices per block (a grid axis maps it in every loader and saver, no
// for-loop walks it, no cluster spans it), computes every slice of
// `L = lcm(t)` indices by one function too; where a block's own ops also
// compute each index of its tile apart, its `t` does not count (L = 1 when
// no block mixes its indices). The two programs then agree on inputs of
// extent n exactly when they agree on inputs of extent L: both are that
// function applied slice by slice, on the slices of the inputs that have the
// dimension and on the whole of those that do not. So the verifier checks
// the pair cut down to L indices, which costs about L/n of the full check
// (docs/Verification.md, "Reduced sizes").
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SEMANTICS_PARALLELDIMENSIONS_H
#define MIRAGE_SEMANTICS_PARALLELDIMENSIONS_H

#include "Mirage/Semantics/Program.h"

namespace mlir::mirage::sem {

/// Union-find classes of the dimensions of a kernel graph's values: two
/// dimensions share a class when the graph's predefined ops identify them
/// (elementwise operands and results where extents agree, matmul batch, row,
/// column and contracted dimensions, the kept dimensions of a reduction).
/// `classes[value][dim]` is the class of `dim` of `value`.
std::vector<llvm::SmallVector<int32_t, 4>>
classifyDimensions(const Graph &kernel);

/// One parallel dimension the check was cut down along.
struct DimensionReduction {
  /// The dimension of the (first) output.
  int64_t outputDim;
  /// Its extent before and after.
  int64_t from, to;
};

/// A reference and a candidate cut down along their parallel dimensions.
struct ReducedPair {
  Program reference, candidate;
  /// Empty when no dimension could be cut down: the pair is the original.
  llvm::SmallVector<DimensionReduction, 2> reductions;
};

/// Cuts `reference` (a kernel graph of predefined ops) and `candidate` down
/// along every parallel dimension of the reference's outputs that the
/// candidate splits evenly among its blocks. The candidate is equivalent to
/// the reference exactly when the reduced candidate is equivalent to the
/// reduced reference.
ReducedPair reduceParallelDimensions(const Program &reference,
                                     const Program &candidate);

} // namespace mlir::mirage::sem

#endif // MIRAGE_SEMANTICS_PARALLELDIMENSIONS_H
