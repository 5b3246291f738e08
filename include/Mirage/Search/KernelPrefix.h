//===- KernelPrefix.h - References cut in two, searched apart ---*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// µGraphs made of two programs searched apart. The reference is cut at one
// value: the ops that compute it (the prefix) and the others (the rest,
// whose inputs are that value and the inputs it still reads) become
// references of their own, and a candidate of each side, or the side as
// written, composed one after the other computes the reference.
//
// Two kinds of cut (docs/Search.md, "Kernel prefixes" and "Cuts"):
// - a kernel prefix keeps one leading op (a library GEMM such as
//   attention's Q·K) as written and searches the rest;
// - a cut between two matmul stages (a gated MLP's activations, which its
//   down projection reads) searches both sides.
// A reference with several outputs is taken apart the same way, one part
// per output (docs/Search.md, "Several outputs").
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

/// A reference cut at the result of one of its kernel ops.
struct PrefixCut {
  /// The node whose result is cut (an index into the reference's kernel
  /// graph).
  int32_t node = -1;
  /// The ops that compute it, in the reference's order, over the inputs
  /// they read (in the reference's order); its output is the node's result.
  sem::Program prefix;
  /// For each input of `prefix`, the reference's kernel value it is.
  SmallVector<int32_t> prefixInputs;
  /// The rest of the reference: its other ops, over the inputs they read
  /// (in the reference's order) and then the cut value.
  sem::Program rest;
  /// For each input of `rest`, the reference's kernel value it is.
  SmallVector<int32_t> restInputs;
};

/// Cuts `reference` after its leading op `node` (getLeadingOps).
PrefixCut cutAfter(const sem::Program &reference, int32_t node);

/// Cuts `reference` at the result of kernel op `node`: nothing when the
/// node has several results, its result is an output, or an op outside
/// the prefix reads another value of the prefix (the rest would need it).
std::optional<PrefixCut> cutAt(const sem::Program &reference, int32_t node);

/// The nodes at which the pass cuts `reference` between two matmul stages:
/// those whose cut has at least two ops on each side, a matmul in the
/// prefix, and the cut value read by matmuls only.
SmallVector<int32_t> getCuts(const sem::Program &reference);

/// The µGraph computing `reference`: `prefix`, a program computing the
/// cut's prefix (its inputs those of `cut.prefix`), then `rest`, one
/// computing its rest (its inputs those of `cut.rest`). Either may be the
/// side as written.
sem::Program compose(const sem::Program &reference, const PrefixCut &cut,
                     const sem::Program &prefix, const sem::Program &rest);

/// One output of a reference with several, as a reference of its own.
struct OutputPart {
  /// The reference's kernel value it computes.
  int32_t output = -1;
  /// The ops that compute it from the reference's inputs and the outputs of
  /// the parts before it (which it reads, not recomputes), in the
  /// reference's order, over those values: the reference's inputs in their
  /// order, then the earlier outputs in theirs.
  sem::Program program;
  /// For each input of `program`, the reference's kernel value it is.
  SmallVector<int32_t> inputs;
};

/// The parts of `reference`: one for each distinct output that an op
/// computes, in the order of those ops (an output that is an input has
/// none).
SmallVector<OutputPart> getOutputParts(const sem::Program &reference);

/// The µGraph computing `reference` from one program per part of `parts`
/// (getOutputParts), in their order: `programs[i]` computes
/// `parts[i].program` (it may be that program, as written).
sem::Program composeParts(const sem::Program &reference,
                          ArrayRef<OutputPart> parts,
                          ArrayRef<const sem::Program *> programs);

/// compose with the prefix as written: the cut's op at kernel level, then
/// `candidate`.
sem::Program composeAfter(const sem::Program &reference, const PrefixCut &cut,
                          const sem::Program &candidate);

/// The inverse for a candidate of `reference` whose kernel graph starts
/// with one op of the reference's own, the leading op `cut.node` (same
/// kind, attributes and operands), and then holds graph_defs (with, between
/// them, unary elementwise ops of the rest's inputs: hoisted input ops),
/// perhaps followed by one binary elementwise op (a hoisted final op): the
/// program of those graph_defs over the inputs of `cut.rest`. Nothing when
/// the candidate is not of that form, or its graph_defs read an input only
/// the kept op reads.
std::optional<sem::Program> splitAfter(const sem::Program &reference,
                                       const sem::Program &candidate,
                                       PrefixCut &cut);

} // namespace mlir::mirage::search

#endif // MIRAGE_SEARCH_KERNELPREFIX_H
