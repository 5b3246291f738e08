//===- BlockGraphSearch.h - Search single-kernel µGraphs --------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The superoptimizer's search (docs/Search.md) for µGraphs computing a
// reference kernel graph's output: one graph_def, or a split pair (a first
// graph_def whose grid also splits a reduced dimension and saves partial
// results side by side, then a combining graph_def that sums them with
// strided reductions, as split-KV attention does). It enumerates launch
// configurations (grid axes, the for-loop range), loads (imap and fmap of
// every input), block ops and accumulators, up to budgets; prunes every new
// value whose abstract expression is not a subexpression of the reference's
// output (Z3Oracle); then verifies the complete candidates with the
// finite-field EquivalenceChecker, cheapest first by the cost model, until
// enough pass.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SEARCH_BLOCKGRAPHSEARCH_H
#define MIRAGE_SEARCH_BLOCKGRAPHSEARCH_H

#include "Mirage/Semantics/Program.h"
#include "mlir/Support/LLVM.h"

#include <string>
#include <vector>

namespace mlir::mirage::search {

/// Budgets and choices of the search.
struct BlockSearchOptions {
  /// Block ops per graph_def body, accumulators included (loads and the
  /// save are not counted).
  unsigned maxOps = 6;
  /// For-loop ranges tried.
  std::vector<int64_t> forloopRanges = {1, 2, 4, 8, 16, 32, 64};
  /// Sizes tried for each grid axis.
  std::vector<int64_t> gridSizes = {2, 4, 8, 16, 32, 64, 128, 256};
  int64_t maxBlocks = 1024;
  /// Stop enumerating after this many complete candidates.
  unsigned maxComplete = 100000;
  /// Verify complete candidates, cheapest first, until this many pass.
  unsigned maxCandidates = 1;
  /// Stop after this many seconds (0: no limit).
  double timeLimitSeconds = 60.0;
  /// Time limit of one Z3 query, in milliseconds.
  unsigned oracleTimeoutMs = 10;
  /// Prune values whose query Z3 could not settle within the time limit
  /// (keeping them keeps the search complete under the axioms, but a
  /// reference whose queries time out, such as nTrans's chains of adds,
  /// then explores every value).
  bool pruneUnknown = true;
  /// Also search split µGraphs: a first kernel whose grid splits a reduced
  /// dimension and writes partial results side by side, and a combining
  /// kernel that sums them (strided reductions) and finishes the output.
  bool splitKernels = true;
  /// Search one-graph_def µGraphs.
  bool singleKernels = true;
  /// Seeds the verifier's random inputs.
  uint64_t seed = 1;
  /// The most partial results the first kernel of a split µGraph writes.
  unsigned maxSplitOutputs = 3;
};

/// What the search did.
struct BlockSearchStatistics {
  /// Launch configurations and loads tried.
  int64_t configurations = 0;
  /// Partial block graphs explored.
  int64_t states = 0;
  /// New values pruned by the abstract-expression test.
  int64_t pruned = 0;
  /// Complete candidates found.
  int64_t complete = 0;
  /// Complete candidates checked by the verifier, and how many passed.
  int64_t checked = 0;
  int64_t verified = 0;
  /// Z3 queries and cache hits.
  int64_t oracleQueries = 0;
  int64_t oracleCacheHits = 0;
  double seconds = 0.0;
  bool timedOut = false;
  /// Verification was skipped or stopped because its estimated cost did not
  /// fit in the time left.
  bool tooLargeToVerify = false;
};

/// Searches one-graph_def programs equivalent to `reference` (a kernel graph
/// of predefined ops with one output). Returns the verified candidates in
/// order of estimated cost; fails with `error` for a reference outside the
/// fragment.
FailureOr<std::vector<sem::Program>>
searchBlockGraphs(const sem::Program &reference,
                  const BlockSearchOptions &options,
                  BlockSearchStatistics &statistics, std::string &error);

} // namespace mlir::mirage::search

#endif // MIRAGE_SEARCH_BLOCKGRAPHSEARCH_H
