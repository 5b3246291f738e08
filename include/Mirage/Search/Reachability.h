//===- Reachability.h - Whether the search can generate a µGraph -*- C++ -*-=//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Given a reference program and a candidate µGraph computing it, says
// whether the search (searchBlockGraphs) with given options generates the
// candidate, up to what getCandidateKey leaves out (renaming, the order of
// independent ops and of grid axes), and if not, names the first rule of
// the search's space that excludes it (docs/Search.md, "Reachability").
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SEARCH_REACHABILITY_H
#define MIRAGE_SEARCH_REACHABILITY_H

#include "Mirage/Search/BlockGraphSearch.h"

namespace mlir::mirage::search {

/// Whether the search generates a candidate, and if not, why.
struct Reachability {
  bool reachable = false;
  /// The first rule that excludes the candidate, empty when it is
  /// reachable: "kernel ops" (kernel-level ops beside the graph_defs, other
  /// than one leading op of the reference before them; KernelPrefix.h),
  /// "kernel count", "clusters", "for-loop range", "grid", "op budget",
  /// "accumulators", "vocabulary", or "search" (inside the space, but the
  /// search pinned to the candidate's launch did not generate it: a pruning
  /// verdict, the enumeration's order or limits, or the code generator's
  /// refusal).
  std::string rule;
  /// What the rule found, e.g. "for-loop range 3 is not among 1, 2, 4".
  std::string detail;
};

/// The thread graphs of `program` inlined into the bodies that hold them:
/// the form the search generates (thread graphs are formed after it).
sem::Program inlineThreadGraphs(const sem::Program &program);

/// Checks whether the search with `options` generates `candidate` for
/// `reference`: the static rules of its space first, then a search pinned
/// to the candidate's for-loop range and grid sizes (within
/// `options.timeLimitSeconds`) that watches every complete candidate for the
/// candidate's key. Fails with `error` for a reference outside the
/// searchable fragment.
FailureOr<Reachability> checkReachable(const sem::Program &reference,
                                       const sem::Program &candidate,
                                       const BlockSearchOptions &options,
                                       std::string &error);

} // namespace mlir::mirage::search

#endif // MIRAGE_SEARCH_REACHABILITY_H
