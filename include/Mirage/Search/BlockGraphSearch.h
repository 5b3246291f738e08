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
// output (Z3Oracle). Launches are explored one for-loop range at a time,
// shared among threads; after each range the complete candidates are
// verified with the finite-field EquivalenceChecker, cheapest first by the
// cost model, those that could still enter the best K. Progress goes to a
// stream, and a checkpoint file records the ranges done and the candidates
// kept, so an interrupted search resumes where it stopped.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SEARCH_BLOCKGRAPHSEARCH_H
#define MIRAGE_SEARCH_BLOCKGRAPHSEARCH_H

#include "Mirage/Search/CostModel.h"
#include "Mirage/Semantics/Program.h"
#include "mlir/Support/LLVM.h"

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

namespace mlir::mirage::search {

/// Budgets and choices of the search.
struct BlockSearchOptions {
  /// Block ops that compute per graph_def body (loads, saves and
  /// accumulators are not counted).
  unsigned maxOps = 6;
  /// `forloop_accum` ops per graph_def body besides them (a split
  /// attention's body accumulates its numerator and its denominator), and
  /// one `rms_last` besides those (fitsAccumulatorBudget).
  unsigned maxAccumulators = 2;
  /// For-loop ranges tried.
  std::vector<int64_t> forloopRanges = {1, 2, 4, 8, 16, 32, 64};
  /// Sizes tried for each grid axis, besides those up to `largestGridSize`.
  std::vector<int64_t> gridSizes = {2, 4, 8, 16, 32, 64, 128, 256};
  /// The largest size tried past `gridSizes` (getGridSizes): the powers of
  /// two above them, and the halvings of an extent that is not a power of
  /// two. 0: the larger of the largest of `gridSizes` and eight blocks per
  /// multiprocessor of `chip` (1056 on an H100), so that 6144 columns get
  /// 768 blocks of 8 and 4096 get 512 of 8, and 18944 get 296 of 64.
  int64_t largestGridSize = 0;
  int64_t maxBlocks = 1024;
  /// Stop enumerating after this many complete candidates.
  unsigned maxComplete = 100000;
  /// The verified candidates to keep: the K cheapest.
  unsigned maxCandidates = 1;
  /// Where the superoptimizer composes or merges candidates (the parts of a
  /// function, the forms it searches), the candidates of other tilings it
  /// keeps besides the `maxCandidates` cheapest (selectCandidates);
  /// searchBlockGraphs does not read it.
  unsigned extraTilings = 0;
  /// Launch overrides, empty when free. `omap`: the output dimension of grid
  /// axes x and y (-1: the axis is unused); a split launch's y axis splits a
  /// reduced dimension, so only x applies to it. `imaps`: for each input,
  /// the dimension grid axes x and y split (-1: replicated). `fmaps`: for
  /// each input, the dimension the for-loop splits (-1: loaded once).
  std::vector<int32_t> omap;
  std::vector<int32_t> imaps;
  std::vector<int32_t> fmaps;
  /// Threads exploring launches (each with its own expressions and Z3
  /// context). Results do not depend on it unless a limit stops the search.
  unsigned threads = 1;
  /// The GPU candidates are ranked for.
  const Chip *chip = &getChips().back();
  /// Where to report each for-loop range explored, or null.
  llvm::raw_ostream *progress = nullptr;
  /// A checkpoint file to resume from and to update after each range, or
  /// empty; `checkpointKey` names the search within it (the function).
  std::string checkpointPath;
  std::string checkpointKey;
  /// Stop after this many seconds (0: no limit).
  double timeLimitSeconds = 60.0;
  /// Time limit of one Z3 query, in milliseconds.
  unsigned oracleTimeoutMs = 2;
  /// Prune values whose query Z3 could not settle within the time limit
  /// (keeping them keeps the search complete under the axioms, but a
  /// reference whose queries time out, such as nTrans's chains of adds,
  /// then explores every value).
  bool pruneUnknown = true;
  /// Also search split µGraphs: a first kernel whose grid splits a reduced
  /// dimension and writes partial results side by side, and a combining
  /// kernel that sums them (strided reductions) and finishes the output.
  bool splitKernels = true;
  /// Among the split µGraphs, also linear splits: where the reference is
  /// linear in a reduced dimension's sums, a split whose grid x also maps
  /// the output's last dimension, each block saving its term of the sum,
  /// and a built combining kernel summing the terms (docs/Search.md,
  /// "Linear splits").
  bool linearSplits = true;
  /// Search one-graph_def µGraphs.
  bool singleKernels = true;
  /// On a chip with clusters, also search one-graph_def µGraphs whose grid
  /// x is one thread-block cluster: a norm's or a softmax's row spread over
  /// its blocks, or a split's parts summed with `cluster_reduce` or
  /// `cluster_reduce_scatter` instead of by a combining kernel. Their
  /// launches are explored in a range's second pass, after every other;
  /// `omap`, `imaps` and `fmaps` overrides turn them off.
  bool clusters = true;
  /// Also search µGraphs whose first kernel is a leading op of the
  /// reference, run as a library op, and whose graph_defs compute the rest
  /// (KernelPrefix.h): the superoptimizer's searches, and so the
  /// reachability check, read it; searchBlockGraphs does not.
  bool kernelPrefixes = true;
  /// Seeds the verifier's random inputs.
  uint64_t seed = 1;
  /// The most partial results the first kernel of a split µGraph writes.
  unsigned maxSplitOutputs = 3;
  /// How the code generator schedules a candidate for `chip`
  /// (scheduleProgram); nothing when it refuses it. Candidates it refuses
  /// are neither verified nor returned; the cost model reads the schedules
  /// of the others. Required.
  std::function<std::optional<ProgramFacts>(const sem::Program &)> schedule;
  /// The form a candidate takes once the search returns it, whose schedule
  /// and cost rank it instead of its own (the superoptimizer stabilises the
  /// candidates of a program searched without its maximum shifts,
  /// Stabilize.h); a candidate without one is dropped. Empty: the candidate
  /// itself.
  std::function<std::optional<sem::Program>(const sem::Program &)> finalForm;
  /// Called with every complete candidate the workers generate, before it
  /// is scheduled or verified, from the worker threads (the reachability
  /// check watches the search with it); may be empty.
  std::function<void(const sem::Program &)> observe;
};

/// Whether a graph_def body may hold `accumulators` for-loop accumulators,
/// `rmsLast` of them `rms_last`, within `maxAccumulators`: one `rms_last`
/// comes besides the budget, a norm folded through the for-loop beside the
/// sums of the matmuls it feeds (RMSNorm before a gated MLP's gate and up
/// projections: two sums and the row's scale in one kernel).
inline bool fitsAccumulatorBudget(unsigned accumulators, unsigned rmsLast,
                                  unsigned maxAccumulators) {
  return accumulators - std::min(rmsLast, 1u) <= maxAccumulators;
}

/// The sizes the search tries for a grid axis over a dimension of
/// `extent`: those of `options.gridSizes` that divide it, the powers of two
/// above them that divide it and, for an extent that is not a power of two,
/// its halvings, both up to the largest size
/// (BlockSearchOptions::largestGridSize).
SmallVector<int64_t> getGridSizes(int64_t extent,
                                  const BlockSearchOptions &options);

/// The key under which the search checks and keeps a candidate once: its
/// program key (sem::getProgramKey) up to the order of each graph_def's grid
/// axes (sorted by extent and by what they map), of independent nodes and
/// of the operands of `add` and `mul`, and without values that nothing
/// names: differences that change neither what it computes nor its time.
std::string getCandidateKey(const sem::Program &program);

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
  /// Complete candidates left out because the code generator refuses them
  /// (BlockSearchOptions::schedule).
  int64_t uncompilable = 0;
  /// Z3 queries and cache hits.
  int64_t oracleQueries = 0;
  int64_t oracleCacheHits = 0;
  double seconds = 0.0;
  /// When the first verified candidate, and the best, were found (seconds
  /// from the start; negative when none was).
  double firstSeconds = -1.0;
  double bestSeconds = -1.0;
  /// For-loop ranges explored, and of them those a checkpoint had done.
  int64_t ranges = 0;
  int64_t resumedRanges = 0;
  /// Candidates the checkpoint recorded that failed verification again (the
  /// file was changed after it was written), dropped.
  int64_t droppedCandidates = 0;
  bool timedOut = false;
  /// Candidates left unverified when the time limit stopped the search
  /// (those that could still have entered the best K, a check the limit
  /// interrupted included); none of them is returned.
  int64_t unverified = 0;
  /// Verification was skipped or stopped because its estimated cost did not
  /// fit in the time left.
  bool tooLargeToVerify = false;
};

/// A verified candidate and its estimated cost.
struct RankedProgram {
  sem::Program program;
  CostEstimate cost;
};

/// The tiling of `program`: the grid of each of its graph_defs and the name
/// of each of its kernel-level ops (library calls, hoisted elementwise
/// ops), in order. Candidates of one tiling differ only in their for-loop
/// ranges, maps, block ops and block sizes.
std::string getTilingKey(const sem::Program &program);

/// Which of the candidates whose tilings (getTilingKey) are `tilings`,
/// cheapest first, to keep: the first `count`, then the cheapest of each
/// tiling those lack, up to `extra` of them. Returns their indices in
/// increasing order (so still cheapest first). The cost model ranks
/// tilings coarsely (a GEMV's grid of 128 blocks estimated cheaper than
/// one of 256 that measures faster), so the tuner gets a few it would rank
/// out.
SmallVector<size_t> selectCandidates(ArrayRef<std::string> tilings,
                                     size_t count, size_t extra);

/// selectCandidates on `ranked` (cheapest first), in place.
void selectCandidates(std::vector<RankedProgram> &ranked, size_t count,
                      size_t extra);

/// Adds the counts of `other` to `total` (times are not added).
void addCounts(BlockSearchStatistics &total,
               const BlockSearchStatistics &other);

/// Fails, with the reason in `error`, for a reference outside the
/// searchable fragment: one output, predefined elementwise, matmul,
/// reduction and rms_norm ops on tensors of positive extents, within the
/// verifier's default limits (Semantics/Limits.h).
LogicalResult checkSearchable(const sem::Program &reference,
                              std::string &error);

/// checkSearchable without its rule of one output: what a reference with
/// several, searched one output at a time (search::getOutputParts), must
/// satisfy.
LogicalResult checkSearchableOps(const sem::Program &reference,
                                 std::string &error);

/// Searches programs equivalent to `reference` (a kernel graph of predefined
/// ops with one output). Returns the best `maxCandidates` verified
/// candidates, cheapest first; fails with `error` for a reference outside
/// the fragment, overrides that do not fit it, or a checkpoint that cannot
/// be read or written (checked before the search starts). The time limit
/// bounds exploration and verification alike: a check it stops leaves its
/// candidate out. Candidates read from a checkpoint are verified again,
/// within the time limit.
FailureOr<std::vector<RankedProgram>>
searchBlockGraphs(const sem::Program &reference,
                  const BlockSearchOptions &options,
                  BlockSearchStatistics &statistics, std::string &error);

} // namespace mlir::mirage::search

#endif // MIRAGE_SEARCH_BLOCKGRAPHSEARCH_H
