//===- Enumerator.h - Block bodies of one launch ----------------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The search's private view of a graph_def being built (BlockGraphSearch.cpp):
// tiles, launch configurations, the op choices and the body enumerator that
// adds loads and block ops depth first, pruned by abstract expressions.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_LIB_SEARCH_ENUMERATOR_H
#define MIRAGE_LIB_SEARCH_ENUMERATOR_H

#include "Mirage/Search/AbstractExpr.h"
#include "Mirage/Search/BlockGraphSearch.h"
#include "Mirage/Search/DimensionLabels.h"
#include "Mirage/Search/Z3Oracle.h"
#include "Mirage/Semantics/LoopPhases.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <array>
#include <atomic>
#include <chrono>
#include <limits>

namespace mlir::mirage::search::detail {

using Shape = SmallVector<int64_t, 4>;
/// The dimension labels of a tile (DimensionLabels.h).
using Labels = SmallVector<int32_t, 4>;

/// The label of the dimension along which a split µGraph stacks its parts
/// (no reference dimension has a negative label).
constexpr int32_t kStackedLabel = -1;
/// The label of a dimension reduced to extent 1.
constexpr int32_t kReducedLabel = -2;

/// A block op the search may add: its kind, for accumulators the kind of
/// accumulation, for reductions the size the last dimension is reduced to,
/// for rms_norm its group size and epsilon, for cluster_reduce_scatter
/// its cluster size and dimension.
struct OpChoice {
  sem::OpKind kind;
  sem::AccumKind accum = sem::AccumKind::Sum;
  int64_t size = 1;
  /// rms_norm's eps, mul_scalar's factor.
  double scalar = 0.0;
  /// cluster_reduce_scatter's dimension (its size is the cluster's), set
  /// for each launch.
  int64_t dim = -1;
};

/// A tile of the body being built.
struct Tile {
  Shape shape;
  Labels labels;
  ExprId expr;
  sem::LoopPhase phase;
  /// The body value holding it.
  int32_t value;
};

/// One launch configuration: grid axes over output dimensions, or one axis
/// splitting a reduced dimension, and the for-loop range.
struct Launch {
  std::array<int64_t, 3> grid = {1, 1, 1};
  /// Output dimension of each grid axis, or -1. The output dimension a
  /// cluster axis that splits a reduced dimension maps is the one its
  /// `cluster_reduce_scatter` cuts: each block saves its chunk of it.
  std::array<int32_t, 3> outputDims = {-1, -1, -1};
  /// The grid axis that splits the input dimensions labelled `splitLabel`
  /// (the first kernel of a split µGraph, or a cluster axis), or -1.
  int32_t splitAxis = -1;
  int32_t splitLabel = 0;
  /// The grid axis whose blocks, all of them, form one thread-block cluster
  /// (one-kernel µGraphs that finish a sum through distributed shared
  /// memory), or -1.
  int32_t clusterAxis = -1;
  int64_t forloop = 1;

  /// Whether the launch is the first kernel of a split µGraph.
  bool isSplit() const { return splitAxis >= 0 && clusterAxis < 0; }
  bool isCluster() const { return clusterAxis >= 0; }
};

/// A node of kind `kind`, its other fields defaulted.
inline sem::Node makeNode(sem::OpKind kind) {
  sem::Node node;
  node.kind = kind;
  return node;
}

/// Whether `tile` lies along the output's dimensions.
bool matchesOutput(const Tile &tile, const DimensionLabels &reference);

/// The tile of an output of `shape` each block of `launch` computes.
Shape getOutputTile(ArrayRef<int64_t> shape, const Launch &launch);

/// The block ops the reference's ops suggest.
std::vector<OpChoice> chooseVocabulary(const sem::Graph &kernel);

/// The block ops a cluster launch adds to them: `cluster_reduce`,
/// `cluster_reduce_scatter` (along the dimension its launch gives), and the
/// parts of each norm of the reference without an epsilon (`square`, a
/// row's sum, `mul_scalar` by one over its size, `sqrt`), since a norm
/// whose row a cluster spreads is summed across the blocks.
std::vector<OpChoice> chooseClusterVocabulary(const sem::Graph &kernel);

/// The cluster sizes the search tries on `chip` (none without clusters).
SmallVector<int64_t> getClusterSizes(const Chip &chip);

/// What the workers of one search share: the reference, the options, the
/// clock and the count of complete candidates.
struct SharedState {
  SharedState(const sem::Program &reference, const BlockSearchOptions &options)
      : reference(reference), options(options),
        start(std::chrono::steady_clock::now()) {}

  double elapsedSeconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         start)
        .count();
  }
  /// True, and recorded, once the time limit has passed.
  bool outOfTime() { return passedTimeLimit(elapsedSeconds()); }
  /// Gives the exploration of one for-loop range until `seconds` after the
  /// start (infinity: until the time limit).
  void beginRange(double seconds) {
    rangeDeadline = seconds;
    rangeTimedOut = false;
  }
  /// True, and recorded, once the time limit or the current range's share
  /// of it has passed: what stops the workers.
  bool rangeOutOfTime() {
    // One clock reading: the workers ask at every state.
    double now = elapsedSeconds();
    if (now > rangeDeadline)
      rangeTimedOut = true;
    return passedTimeLimit(now) || rangeTimedOut;
  }
  /// Records that the time limit has passed if it has at `now`; true once
  /// it has.
  bool passedTimeLimit(double now) {
    if (options.timeLimitSeconds > 0.0 && now > options.timeLimitSeconds)
      timedOut = true;
    return timedOut;
  }

  const sem::Program &reference;
  const BlockSearchOptions &options;
  std::chrono::steady_clock::time_point start;
  std::atomic<bool> timedOut = false;
  std::atomic<double> rangeDeadline = std::numeric_limits<double>::infinity();
  std::atomic<bool> rangeTimedOut = false;
  std::atomic<int64_t> complete = 0;
};

/// What every graph_def one worker builds shares: the expressions, the
/// oracle, the statistics and the shared state.
class SearchContext {
public:
  SearchContext(SharedState &shared, BlockSearchStatistics &statistics)
      : options(shared.options), statistics(statistics), shared(shared),
        oracle(pool, options.oracleTimeoutMs) {}

  bool outOfTime() { return shared.rangeOutOfTime(); }
  /// Whether `a` and `b` are equivalent under the axioms.
  bool equivalent(ExprId a, ExprId b) {
    return a == b || (oracle.isSubexpression(a, b) == Verdict::Yes &&
                      oracle.isSubexpression(b, a) == Verdict::Yes);
  }

  const BlockSearchOptions &options;
  BlockSearchStatistics &statistics;
  SharedState &shared;
  ExprPool pool;
  Z3Oracle oracle;
  /// The reference's output.
  ExprId target = -1;
};

/// The inputs and the ops of one graph_def to search.
struct KernelSpace {
  SmallVector<sem::ValueType> inputTypes;
  SmallVector<ExprId> inputExprs;
  /// Dimension labels of the inputs and the output (DimensionLabels.h).
  DimensionLabels labels;
  std::vector<OpChoice> vocabulary;
  /// The ops cluster launches add to `vocabulary`.
  std::vector<OpChoice> clusterVocabulary;
  /// Ops that compute per body, and `forloop_accum`s besides them.
  unsigned maxOps;
  unsigned maxAccumulators = 0;
  /// The µGraph's result: its shape guides the grid and the imaps, its
  /// element type is every computed tile's.
  sem::ValueType output;
  /// Imap and fmap overrides (BlockSearchOptions) of the first inputs (of
  /// every input as the options give them, two imap entries and one fmap
  /// entry per input); the inputs after them are free.
  ArrayRef<int32_t> imaps;
  ArrayRef<int32_t> fmaps;
};

/// The elements of the split dimension each block of a split launch sums
/// (its extent over the split axis's blocks), or 0 when `launch` splits
/// none.
int64_t getSplitChunk(const KernelSpace &space, const Launch &launch);

/// Called on every partial body with at least one op, newest tile last;
/// returns true to stop the enumeration.
using StateVisitor = llvm::function_ref<bool(const Launch &, const sem::Graph &,
                                             ArrayRef<Tile>)>;

/// Enumerates the bodies of one graph_def for a launch: the imap and fmap of
/// every input, then block ops depth first, each new value pruned unless its
/// expression is a subexpression of the target.
class BodyEnumerator {
public:
  BodyEnumerator(SearchContext &context, const KernelSpace &space,
                 StateVisitor visit)
      : context(context), space(space), visit(visit) {}

  /// Enumerates the bodies of `launch`, or only those of its configuration
  /// (choice of loads) number `configuration`; false once the visitor
  /// stopped it.
  bool run(const Launch &launch, int64_t configuration = -1);
  /// The number of configurations of `launch`.
  int64_t countConfigurations(const Launch &launch);

private:
  /// Starts the enumeration of `launch`'s loads.
  void startLoads(const Launch &launch);
  void searchLoads(size_t index);
  /// Adds ops to the body, which holds `ops` ops that compute and
  /// `accumulators` accumulators, `rmsLast` of them `rms_last`; `last` is
  /// the previous op (canonical order).
  void searchOps(unsigned ops, unsigned accumulators, unsigned rmsLast,
                 const std::pair<unsigned, SmallVector<int32_t, 2>> &last);
  /// Tries `choice` on the tiles at `operands`.
  void tryOp(unsigned choiceIndex, ArrayRef<int32_t> operands, unsigned ops,
             unsigned accumulators, unsigned rmsLast);
  /// Whether a new value of expression `expr` stays: a subexpression of
  /// the target, or in a split launch a term of a linear split of one
  /// (widenSplitSums).
  bool isKept(ExprId expr);
  /// Whether body value `value` is a whole-row reduction (to size 1).
  bool sumsWholeRows(int32_t value) const;
  /// Whether body value `value` is a `forloop_accum sum`.
  bool isSummedAccumulator(int32_t value) const;
  bool stopping() { return stopped || context.outOfTime(); }

  SearchContext &context;
  const KernelSpace &space;
  StateVisitor visit;
  Launch launch;
  /// getSplitChunk of the launch.
  int64_t splitChunk = 0;
  /// The launch's block ops: the space's vocabulary, and on a cluster
  /// launch its cluster vocabulary.
  std::vector<OpChoice> choices;
  sem::Graph body;
  SmallVector<Tile> tiles;
  bool stopped = false;
  /// The configuration to explore (-1: all), or none when counting.
  int64_t onlyConfiguration = -1;
  bool counting = false;
  /// Configurations met so far.
  int64_t configurations = 0;
};

} // namespace mlir::mirage::search::detail

#endif // MIRAGE_LIB_SEARCH_ENUMERATOR_H
