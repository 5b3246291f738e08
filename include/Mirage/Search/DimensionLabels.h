//===- DimensionLabels.h - Which dimensions a reference reduces -*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Labels the dimensions of a reference kernel graph's values: two dimensions
// share a label when the reference's ops identify them (elementwise operands
// and results, matmul batch, row, column and contracted dimensions, the kept
// dimensions of a reduction). The search uses them to restrict grid axes and
// for-loops: a grid axis over an output dimension splits exactly the input
// dimensions of its label; the for-loop and the split axis of a split
// µGraph iterate over dimensions whose label the output lacks (reduced
// ones). Extents alone would confuse, e.g., attention's head dimension of Q
// (contracted) with that of V (kept).
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SEARCH_DIMENSIONLABELS_H
#define MIRAGE_SEARCH_DIMENSIONLABELS_H

#include "Mirage/Semantics/Program.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::mirage::search {

/// A label per dimension of the reference's inputs and of its output.
struct DimensionLabels {
  /// `inputs[i][d]`: the label of dimension `d` of input `i`.
  llvm::SmallVector<llvm::SmallVector<int32_t, 4>> inputs;
  llvm::SmallVector<int32_t, 4> output;
  /// The labels of the dimensions the reference's reductions sum over: all
  /// reduced labels, and those of a sum broadcast back over the dimension
  /// it reduced (a softmax's denominator).
  llvm::SmallVector<int32_t, 4> summed;
  /// The labels of the rows the reference's norms normalise (each summed
  /// squared; a cluster launch spreading such a row sums it in parts).
  llvm::SmallVector<int32_t, 4> normalised;

  /// Whether no output dimension has `label`.
  bool isReduced(int32_t label) const;
  /// Whether a reduction of the reference sums over `label`.
  bool isSummed(int32_t label) const;
  /// Whether a norm of the reference normalises rows along `label`.
  bool isNormalised(int32_t label) const;
};

/// Labels the dimensions of `reference`'s inputs and of its first output
/// (a kernel graph of predefined ops).
DimensionLabels labelDimensions(const sem::Program &reference);

} // namespace mlir::mirage::search

#endif // MIRAGE_SEARCH_DIMENSIONLABELS_H
