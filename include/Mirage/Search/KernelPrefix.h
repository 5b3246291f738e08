//===- KernelPrefix.h - Library ops before the searched kernels -*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// µGraphs whose first kernel is one of the reference's own predefined ops
// (a library GEMM such as attention's Q·K), the rest searched as graph_defs
// that read its result: the reference is cut after a leading op, the rest
// searched as a reference of its own (its inputs: the leading op's result
// and the inputs the rest still reads), and each of the rest's candidates
// composed after the op (docs/Search.md, "Kernel prefixes").
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SEARCH_KERNELPREFIX_H
#define MIRAGE_SEARCH_KERNELPREFIX_H

#include "Mirage/Semantics/Program.h"
#include "mlir/Support/LLVM.h"

namespace mlir::mirage::search {

/// The nodes of `reference`'s kernel graph that read only its inputs and do
/// not compute its output: the ops a kernel prefix may keep.
SmallVector<int32_t> getLeadingOps(const sem::Program &reference);

/// A reference cut after one of its leading ops.
struct PrefixCut {
  /// The node kept at kernel level (an index into the reference's kernel
  /// graph).
  int32_t node = -1;
  /// The rest of the reference: its other ops, over the inputs they read
  /// (in the reference's order) and then the kept op's result.
  sem::Program rest;
  /// For each input of `rest`, the reference's kernel value it is.
  SmallVector<int32_t> restInputs;
};

/// Cuts `reference` after its leading op `node` (getLeadingOps).
PrefixCut cutAfter(const sem::Program &reference, int32_t node);

/// The µGraph computing `reference`: the cut's op at kernel level, then
/// `candidate`, a program computing the cut's rest (its inputs those of
/// `rest`).
sem::Program composeAfter(const sem::Program &reference, const PrefixCut &cut,
                          const sem::Program &candidate);

/// The inverse for a candidate of `reference` whose kernel graph starts
/// with one op of the reference's own, the leading op `cut.node` (same
/// kind, attributes and operands), and then holds graph_defs only: the
/// program of those graph_defs over the inputs of `cut.rest`. Nothing when
/// the candidate is not of that form, or its graph_defs read an input only
/// the kept op reads.
std::optional<sem::Program> splitAfter(const sem::Program &reference,
                                       const sem::Program &candidate,
                                       PrefixCut &cut);

} // namespace mlir::mirage::search

#endif // MIRAGE_SEARCH_KERNELPREFIX_H
