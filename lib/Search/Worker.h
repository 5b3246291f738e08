//===- Worker.h - One thread's share of a search ----------------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A worker turns launch configurations into complete candidates: one-kernel
// µGraphs, and split pairs whose combining kernel it searches (and caches),
// each also with its final elementwise op hoisted to kernel level (shown to
// an observer only: its fused twin dominates it).
// Each worker has its own expression pool and Z3 oracle, so workers run on
// their own threads.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_LIB_SEARCH_WORKER_H
#define MIRAGE_LIB_SEARCH_WORKER_H

#include "Enumerator.h"

#include <map>
#include <optional>
#include <tuple>

namespace mlir::mirage::search::detail {

/// An elementwise op that ends a graph_def body, to run at kernel level
/// instead: the op, the body values it reads and the types of the kernel
/// tensors they are saved into.
struct FinalOp {
  sem::Node op;
  SmallVector<int32_t, 2> values;
  SmallVector<sem::ValueType, 2> types;
};

/// The combining kernel of a split µGraph, and, when an observer watches
/// the search, the same kernel saving the operands of its final op where
/// that op may run at kernel level (`hoist`).
struct Combiner {
  sem::Graph body;
  /// The reference input the kernel reads after the parts (attention's
  /// scores, whose row sums it takes itself), or -1: the parts alone.
  int32_t input = -1;
  std::optional<FinalOp> hoist;
  sem::Graph hoistedBody;
  /// When an observer watches and the kernel applies a unary elementwise op
  /// to the input alone (`exp` of the scores): that op, and the kernel
  /// reading its result instead, the op then running at kernel level.
  std::optional<sem::Node> inputOp;
  sem::Graph inputOpBody;
};

/// One thread's share of a search: its own expressions, oracle and
/// combining kernels; it turns launches into complete candidates.
class Worker {
public:
  Worker(SharedState &shared, const KernelSpace &prototype)
      : shared(shared), context(shared, statistics), space(prototype) {
    space.inputExprs.clear();
    for (size_t i = 0; i < space.inputTypes.size(); ++i)
      space.inputExprs.push_back(context.pool.input(i));
    context.target =
        computeOutputExpressions(shared.reference, context.pool).front();
  }

  /// Appends the complete candidates of configuration `configuration` of
  /// `launch` to `out`, in the order found.
  void explore(const Launch &launch, int64_t configuration,
               std::vector<sem::Program> &out);
  /// The number of configurations of `launch`.
  int64_t countConfigurations(const Launch &launch) {
    return BodyEnumerator(context, space,
                          [](const Launch &, const sem::Graph &,
                             ArrayRef<Tile>) { return true; })
        .countConfigurations(launch);
  }
  /// True once enough candidates are complete or time is up.
  bool done() {
    return shared.complete >= int64_t(shared.options.maxComplete) ||
           context.outOfTime();
  }

  /// Configurations, states, pruned values and complete candidates.
  BlockSearchStatistics statistics;
  const OracleStatistics &getOracleStatistics() const {
    return context.oracle.getStatistics();
  }

private:
  /// Keeps a one-kernel µGraph when the newest tile is the reference's
  /// output, and the hoisted form of its final op (FinalOp) when it has
  /// one.
  bool visitSingle(const Launch &launch, const sem::Graph &body,
                   ArrayRef<Tile> tiles);
  /// Keeps a split µGraph when a combining kernel turns the unused tiles
  /// into the reference's output, and the hoisted form of the combining
  /// kernel's final op when it has one.
  bool visitSplit(const Launch &launch, const sem::Graph &body,
                  ArrayRef<Tile> tiles);
  /// Keeps a *linear split* when `parts` is one tile whose sum over the
  /// split's blocks is the reference's output (widenSplitSums): the blocks'
  /// terms stacked along the last output dimension no other grid axis
  /// maps, then a combining kernel that sums them (docs/Search.md, "Linear
  /// splits").
  bool visitLinearSplit(const Launch &launch, const sem::Graph &body,
                        ArrayRef<const Tile *> parts);
  /// The kernel computing the output from the partial results of `parts`
  /// (types and expressions) of a first kernel split by `launch`, or, when
  /// they alone do not give it, from them and one input of the reference
  /// that holds the split dimension; or nothing. Cached.
  const std::optional<Combiner> &combine(ArrayRef<sem::ValueType> partTypes,
                                         ArrayRef<ExprId> partExprs,
                                         const Launch &launch);
  /// Records a complete candidate.
  bool keep(sem::Program candidate) {
    ++statistics.complete;
    ++shared.complete;
    if (shared.options.observe)
      shared.options.observe(candidate);
    found->push_back(std::move(candidate));
    return done();
  }
  /// Whether an observer watches for dominated candidates: a hoisted form,
  /// whose fused twin computes the same with one launch and two saved
  /// tensors less, is in the space but is only shown to the observer
  /// (BlockSearchOptions::observe), never counted, scheduled or kept.
  bool observesDominated() const {
    return static_cast<bool>(shared.options.observe);
  }

  SharedState &shared;
  SearchContext context;
  KernelSpace space;
  /// The parts' expressions and shapes, and the split: its blocks and the
  /// label of the dimension it splits.
  using CombineKey =
      std::tuple<SmallVector<ExprId>, SmallVector<Shape>, int64_t, int32_t>;
  /// Combining kernels found (or not) so far.
  std::map<CombineKey, std::optional<Combiner>> combined;
  /// Where explore() puts candidates.
  std::vector<sem::Program> *found = nullptr;
};

} // namespace mlir::mirage::search::detail

#endif // MIRAGE_LIB_SEARCH_WORKER_H
