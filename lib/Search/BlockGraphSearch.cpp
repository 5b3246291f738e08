//===- BlockGraphSearch.cpp - Search single-kernel µGraphs ----------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Search/BlockGraphSearch.h"

#include "Mirage/Search/AbstractExpr.h"
#include "Mirage/Search/CostModel.h"
#include "Mirage/Search/Z3Oracle.h"
#include "Mirage/Semantics/Equivalence.h"
#include "Mirage/Semantics/LoopPhases.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"

#include <chrono>

using namespace mlir;
using namespace mlir::mirage;
using namespace mlir::mirage::search;
using sem::AccumKind;
using sem::LoopPhase;
using sem::Graph;
using sem::Node;
using sem::OpKind;
using sem::ValueType;

namespace {

using Shape = SmallVector<int64_t, 4>;

/// Throughput of the finite-field matmul on one core of this machine kind
/// (docs/Benchmarks/Verifier.md), and the trials a check usually takes.
constexpr double kFieldMultiplyAddsPerSecond = 2.5e8;
constexpr double kVerificationTrials = 3.0;

/// A block op the search may add: its kind and, for accumulators, the kind
/// of accumulation.
struct OpChoice {
  OpKind kind;
  AccumKind accum = AccumKind::Sum;
};

/// A tile of the body being built.
struct Tile {
  Shape shape;
  ExprId expr;
  LoopPhase phase;
  /// The body value holding it.
  int32_t value;
};

/// One launch configuration: grid axes over output dimensions and the
/// for-loop range.
struct Launch {
  std::array<int64_t, 3> grid = {1, 1, 1};
  /// Output dimension of each grid axis, or -1.
  std::array<int32_t, 3> outputDims = {-1, -1, -1};
  int64_t forloop = 1;
};

Node makeNode(OpKind kind) {
  Node node;
  node.kind = kind;
  return node;
}

/// The result shape of `choice` on `operands`, or nothing when it does not
/// apply.
std::optional<Shape> inferShape(const OpChoice &choice,
                                ArrayRef<const Tile *> operands) {
  const Shape &a = operands[0]->shape;
  if (sem::isUnary(choice.kind))
    return a;
  if (sem::isBinary(choice.kind)) {
    const Shape &b = operands[1]->shape;
    if (a.size() != b.size())
      return std::nullopt;
    Shape result;
    for (auto [x, y] : llvm::zip(a, b)) {
      if (x != y && x != 1 && y != 1)
        return std::nullopt;
      result.push_back(std::max(x, y));
    }
    return result;
  }
  switch (choice.kind) {
  case OpKind::Matmul: {
    const Shape &b = operands[1]->shape;
    size_t rank = a.size();
    if (rank < 2 || b.size() != rank || a[rank - 1] != b[rank - 2] ||
        !std::equal(a.begin(), a.end() - 2, b.begin()))
      return std::nullopt;
    Shape result(a);
    result[rank - 1] = b[rank - 1];
    return result;
  }
  case OpKind::Reduction:
  case OpKind::ForloopAccum: {
    Shape result(a);
    bool reducesLast = choice.kind == OpKind::Reduction ||
                       choice.accum != AccumKind::Sum;
    if (reducesLast) {
      if (result.back() == 1)
        return std::nullopt;
      result.back() = 1;
    }
    return result;
  }
  default:
    return std::nullopt;
  }
}

/// Searches the bodies of one reference.
class Searcher {
public:
  Searcher(const sem::Program &reference, const BlockSearchOptions &options,
           BlockSearchStatistics &statistics)
      : reference(reference), options(options), statistics(statistics),
        oracle(pool, options.oracleTimeoutMs) {}

  FailureOr<std::vector<sem::Program>> run(std::string &error);

private:
  /// The block ops the reference's ops suggest.
  void chooseVocabulary();
  void searchLaunch(const Launch &launch);
  /// Enumerates the imap/fmap of input `index` onward.
  void searchLoads(const Launch &launch, size_t index, Graph &body,
                   SmallVector<Tile> &tiles);
  /// Depth-first search over block ops from `tiles`.
  void searchOps(const Launch &launch, Graph &body, SmallVector<Tile> &tiles,
                 unsigned ops, std::pair<unsigned, SmallVector<int32_t, 2>> last);
  /// Adds an output_saver for `tile` and keeps the complete program.
  void complete(const Launch &launch, const Graph &body, const Tile &tile);
  /// Verifies the complete programs, cheapest first (CostModel.h), until
  /// enough pass.
  void verifyCheapestFirst();
  bool equivalent(ExprId a, ExprId b);
  bool outOfTime();
  double elapsedSeconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         start)
        .count();
  }
  /// Whether verifying `program` (its estimated field multiply-adds over the
  /// usual trials) fits in the time left.
  bool affordable(const sem::Program &program);
  /// True once enough candidates are verified or time is up.
  bool done() const;

  const sem::Program &reference;
  const BlockSearchOptions &options;
  BlockSearchStatistics &statistics;
  ExprPool pool;
  Z3Oracle oracle;
  ExprId target = -1;
  ValueType outputType;
  SmallVector<ValueType> inputTypes;
  std::vector<OpChoice> vocabulary;
  /// Created on first use: it evaluates the reference.
  std::optional<sem::EquivalenceChecker> checker;
  /// Complete programs, not yet verified.
  std::vector<sem::Program> pending;
  std::vector<sem::Program> found;
  std::chrono::steady_clock::time_point start;
};

void Searcher::chooseVocabulary() {
  llvm::SmallSetVector<OpKind, 8> kinds;
  bool reduces = false, normalises = false;
  for (const Node &node : reference.getKernelGraph().nodes) {
    if (node.kind == OpKind::RmsNorm)
      normalises = true;
    else if (node.kind == OpKind::Reduction)
      reduces = true;
    else
      kinds.insert(node.kind);
  }
  if (normalises)
    kinds.insert(OpKind::Div);
  for (OpKind kind : kinds)
    vocabulary.push_back({kind});
  if (reduces)
    vocabulary.push_back({OpKind::Reduction});
  vocabulary.push_back({OpKind::ForloopAccum, AccumKind::Sum});
  if (reduces)
    vocabulary.push_back({OpKind::ForloopAccum, AccumKind::SumLast});
  if (normalises)
    vocabulary.push_back({OpKind::ForloopAccum, AccumKind::RmsLast});
}

bool Searcher::outOfTime() {
  if (options.timeLimitSeconds <= 0.0)
    return false;
  statistics.timedOut |= elapsedSeconds() > options.timeLimitSeconds;
  return statistics.timedOut;
}

bool Searcher::done() const {
  return pending.size() >= options.maxComplete || statistics.timedOut;
}

bool Searcher::equivalent(ExprId a, ExprId b) {
  return a == b || (oracle.isSubexpression(a, b) == Verdict::Yes &&
                    oracle.isSubexpression(b, a) == Verdict::Yes);
}

FailureOr<std::vector<sem::Program>> Searcher::run(std::string &error) {
  const Graph &kernel = reference.getKernelGraph();
  if (kernel.outputs.size() != 1) {
    error = "the search handles references with one output";
    return failure();
  }
  for (const Node &node : kernel.nodes)
    if (node.kind == OpKind::GraphDef || node.kind == OpKind::Chunk ||
        node.kind == OpKind::Concat) {
      error = (getOpName(node.kind) + " is outside the searchable fragment "
                                      "(predefined elementwise, matmul, "
                                      "reduction and rms_norm ops)")
                  .str();
      return failure();
    }
  target = computeOutputExpressions(reference, pool).front();
  outputType = kernel.values[kernel.outputs.front()];
  for (int32_t input : kernel.inputs)
    inputTypes.push_back(kernel.values[input]);
  chooseVocabulary();
  start = std::chrono::steady_clock::now();

  // Grid axes x and y over distinct output dimensions (x first), then every
  // for-loop range.
  ArrayRef<int64_t> out = outputType.shape;
  SmallVector<std::pair<int32_t, int64_t>> axisChoices = {{-1, 1}};
  for (auto [d, extent] : llvm::enumerate(out))
    for (int64_t size : options.gridSizes)
      if (size > 1 && extent % size == 0)
        axisChoices.push_back({static_cast<int32_t>(d), size});
  for (int64_t forloop : options.forloopRanges)
    for (auto [dx, gx] : axisChoices)
      for (auto [dy, gy] : axisChoices) {
        if ((dx < 0 && dy >= 0) || (dx >= 0 && dx == dy) ||
            gx * gy > options.maxBlocks)
          continue;
        if (done() || outOfTime())
          break;
        Launch launch;
        launch.grid = {gx, gy, 1};
        launch.outputDims = {dx, dy, -1};
        launch.forloop = forloop;
        searchLaunch(launch);
      }
  verifyCheapestFirst();
  statistics.seconds = elapsedSeconds();
  statistics.oracleQueries = oracle.getStatistics().queries;
  statistics.oracleCacheHits = oracle.getStatistics().cacheHits;
  return std::move(found);
}

void Searcher::searchLaunch(const Launch &launch) {
  Graph body;
  body.grid = launch.grid;
  body.forloop = launch.forloop;
  for (const ValueType &type : inputTypes) {
    body.inputs.push_back(body.values.size());
    body.values.push_back(type);
  }
  SmallVector<Tile> tiles;
  searchLoads(launch, 0, body, tiles);
}

void Searcher::searchLoads(const Launch &launch, size_t index, Graph &body,
                           SmallVector<Tile> &tiles) {
  if (done() || outOfTime())
    return;
  if (index == inputTypes.size()) {
    ++statistics.configurations;
    searchOps(launch, body, tiles, 0, {0, {}});
    return;
  }
  // A grid axis splits an input only along a dimension as long as the output
  // dimension it splits (or replicates it); the for-loop splits one
  // dimension of the tile, or none.
  ArrayRef<int64_t> shape = inputTypes[index].shape;
  ArrayRef<int64_t> out = outputType.shape;
  SmallVector<SmallVector<int32_t, 4>, 3> axisDims(2);
  for (unsigned axis = 0; axis < 2; ++axis) {
    axisDims[axis].push_back(-1);
    if (launch.outputDims[axis] < 0)
      continue;
    for (auto [d, extent] : llvm::enumerate(shape))
      if (extent == out[launch.outputDims[axis]])
        axisDims[axis].push_back(d);
  }
  for (int32_t mx : axisDims[0])
    for (int32_t my : axisDims[1]) {
      if (mx >= 0 && mx == my)
        continue;
      Shape tile(shape);
      if (mx >= 0)
        tile[mx] /= launch.grid[0];
      if (my >= 0)
        tile[my] /= launch.grid[1];
      SmallVector<int32_t, 4> fmaps = {-1};
      if (launch.forloop > 1)
        for (auto [d, extent] : llvm::enumerate(tile))
          if (extent % launch.forloop == 0 && extent > launch.forloop - 1 &&
              static_cast<int32_t>(d) != mx && static_cast<int32_t>(d) != my)
            fmaps.push_back(d);
      for (int32_t fmap : fmaps) {
        Shape loaded(tile);
        if (fmap >= 0)
          loaded[fmap] /= launch.forloop;
        Node node = makeNode(OpKind::InputLoader);
        node.operands = {body.inputs[index]};
        node.results = {static_cast<int32_t>(body.values.size())};
        node.map = {mx, my, -1};
        node.dim = fmap;
        body.values.push_back({loaded, inputTypes[index].elementType});
        body.nodes.push_back(node);
        tiles.push_back({loaded, pool.input(index),
                         fmap >= 0 ? LoopPhase::InLoop : LoopPhase::Invariant,
                         node.results[0]});
        searchLoads(launch, index + 1, body, tiles);
        tiles.pop_back();
        body.nodes.pop_back();
        body.values.pop_back();
      }
    }
}

void Searcher::searchOps(const Launch &launch, Graph &body,
                         SmallVector<Tile> &tiles, unsigned ops,
                         std::pair<unsigned, SmallVector<int32_t, 2>> last) {
  if (done() || outOfTime())
    return;
  ++statistics.states;
  // The result tile of this block.
  Shape outTile(outputType.shape);
  for (unsigned axis = 0; axis < 2; ++axis)
    if (launch.outputDims[axis] >= 0)
      outTile[launch.outputDims[axis]] /= launch.grid[axis];
  if (ops > 0) {
    const Tile &newest = tiles.back();
    bool saveable = newest.phase == LoopPhase::PostLoop ||
                    (launch.forloop == 1 && newest.phase != LoopPhase::PostLoop);
    if (saveable && newest.shape == outTile && equivalent(newest.expr, target))
      complete(launch, body, newest);
  }
  if (ops == options.maxOps)
    return;

  size_t numTiles = tiles.size();
  for (auto [choiceIndex, choice] : llvm::enumerate(vocabulary)) {
    if (outOfTime())
      return;
    unsigned arity = sem::isBinary(choice.kind) || choice.kind == OpKind::Matmul
                         ? 2
                         : 1;
    bool accumulates = choice.kind == OpKind::ForloopAccum;
    if (accumulates && launch.forloop == 1)
      continue;
    SmallVector<int32_t, 2> operands(arity, 0);
    // Every operand tuple, in lexicographic order.
    while (true) {
      // Canonical order: a new op either uses the newest tile or comes after
      // the previous op in (choice, operands) order, so independent ops are
      // added in one order only.
      bool usesNewest = llvm::is_contained(operands, int32_t(numTiles - 1));
      std::pair<unsigned, SmallVector<int32_t, 2>> key = {choiceIndex, operands};
      if (ops == 0 || usesNewest || key >= last) {
        SmallVector<const Tile *, 2> inputs;
        for (int32_t operand : operands)
          inputs.push_back(&tiles[operand]);
        LoopPhase phase = LoopPhase::Invariant;
        bool mixed = false;
        for (const Tile *tile : inputs) {
          if (tile->phase == LoopPhase::Invariant || tile->phase == phase)
            continue;
          mixed |= phase != LoopPhase::Invariant;
          phase = tile->phase;
        }
        if (accumulates) {
          mixed |= phase != LoopPhase::InLoop;
          phase = LoopPhase::PostLoop;
        }
        std::optional<Shape> shape =
            mixed ? std::nullopt : inferShape(choice, inputs);
        if (shape) {
          Node node = makeNode(choice.kind);
          for (int32_t operand : operands)
            node.operands.push_back(tiles[operand].value);
          node.results = {static_cast<int32_t>(body.values.size())};
          node.accum = choice.accum;
          if (choice.kind == OpKind::Reduction) {
            node.dim = shape->size() - 1;
            node.size = 1;
          }
          body.values.push_back({*shape, outputType.elementType});
          SmallVector<ExprId, 2> operandExprs;
          for (const Tile *tile : inputs)
            operandExprs.push_back(tile->expr);
          ExprId expr = computeNodeExpression(pool, body, node, operandExprs);
          bool redundant = llvm::any_of(tiles, [&](const Tile &tile) {
            return tile.expr == expr && tile.shape == *shape &&
                   tile.phase == phase;
          });
          if (!redundant &&
              oracle.isSubexpression(expr, target) == Verdict::No) {
            ++statistics.pruned;
          } else if (!redundant) {
            body.nodes.push_back(node);
            tiles.push_back({*shape, expr, phase, node.results[0]});
            searchOps(launch, body, tiles, ops + 1, key);
            tiles.pop_back();
            body.nodes.pop_back();
          }
          body.values.pop_back();
        }
      }
      // Next operand tuple.
      int position = arity - 1;
      while (position >= 0 && ++operands[position] == int32_t(numTiles))
        operands[position--] = 0;
      if (position < 0)
        break;
    }
  }
}

void Searcher::complete(const Launch &launch, const Graph &body,
                        const Tile &tile) {
  sem::Program candidate;
  Graph kernel;
  for (const ValueType &type : inputTypes) {
    kernel.inputs.push_back(kernel.values.size());
    kernel.values.push_back(type);
  }
  Node graphDef = makeNode(OpKind::GraphDef);
  graphDef.operands.assign(kernel.inputs.begin(), kernel.inputs.end());
  graphDef.results = {static_cast<int32_t>(kernel.values.size())};
  graphDef.body = 1;
  kernel.values.push_back(outputType);
  kernel.outputs.assign(graphDef.results.begin(), graphDef.results.end());
  kernel.nodes.push_back(graphDef);

  // The body without the ops the saved tile does not depend on.
  Graph saved = body;
  saved.nodes.clear();
  llvm::DenseSet<int32_t> live = {tile.value};
  for (const Node &node : llvm::reverse(body.nodes)) {
    if (!live.contains(node.results[0]))
      continue;
    live.insert(node.operands.begin(), node.operands.end());
  }
  for (const Node &node : body.nodes)
    if (live.contains(node.results[0]))
      saved.nodes.push_back(node);
  Node saver = makeNode(OpKind::OutputSaver);
  saver.operands = {tile.value};
  saver.results = {static_cast<int32_t>(saved.values.size())};
  saver.map = {launch.outputDims[0], launch.outputDims[1], -1};
  saved.values.push_back(outputType);
  saved.nodes.push_back(saver);
  saved.outputs.assign(saver.results.begin(), saver.results.end());
  candidate.graphs = {std::move(kernel), std::move(saved)};

  ++statistics.complete;
  pending.push_back(std::move(candidate));
}

/// Multiply-adds of one evaluation of `program`'s matmuls, block graphs
/// included (every block, every iteration).
static double countMultiplyAdds(const sem::Program &program) {
  double total = 0.0;
  for (const Graph &graph : program.graphs) {
    double repeat =
        &graph == &program.getKernelGraph()
            ? 1.0
            : double(graph.getNumBlocks()) * double(graph.forloop);
    for (const Node &node : graph.nodes)
      if (node.kind == OpKind::Matmul) {
        const ValueType &a = graph.values[node.operands[0]];
        const ValueType &out = graph.values[node.results[0]];
        total += repeat * double(out.getNumElements()) * double(a.shape.back());
      }
  }
  return total;
}

bool Searcher::affordable(const sem::Program &program) {
  if (options.timeLimitSeconds <= 0.0)
    return true;
  double seconds = countMultiplyAdds(program) * kVerificationTrials /
                   kFieldMultiplyAddsPerSecond;
  return elapsedSeconds() + seconds <= options.timeLimitSeconds;
}

void Searcher::verifyCheapestFirst() {
  if (pending.empty())
    return;
  // The checker evaluates the reference once per trial.
  if (!affordable(reference)) {
    statistics.tooLargeToVerify = true;
    return;
  }
  std::string error;
  FailureOr<sem::EquivalenceChecker> created = sem::EquivalenceChecker::create(
      reference, sem::EquivalenceOptions(), error);
  if (failed(created))
    return;
  checker.emplace(std::move(*created));

  std::vector<std::pair<CostEstimate, size_t>> order;
  for (auto [i, candidate] : llvm::enumerate(pending))
    order.push_back({estimateCost(candidate), i});
  // Equal costs keep the order found, so results are deterministic.
  llvm::sort(order, [](const auto &a, const auto &b) {
    if (a.first < b.first || b.first < a.first)
      return a.first < b.first;
    return a.second < b.second;
  });
  // The time limit bounds verification too: a candidate is checked only if
  // its estimated cost fits in the time left.
  for (auto &[cost, i] : order) {
    if (found.size() >= options.maxCandidates || outOfTime())
      break;
    if (!affordable(pending[i])) {
      statistics.tooLargeToVerify = true;
      break;
    }
    ++statistics.checked;
    FailureOr<sem::EquivalenceVerdict> verdict =
        checker->check(pending[i], error);
    if (succeeded(verdict) && verdict->equivalent) {
      ++statistics.verified;
      found.push_back(std::move(pending[i]));
    }
  }
}

} // namespace

FailureOr<std::vector<sem::Program>>
search::searchBlockGraphs(const sem::Program &reference,
                          const BlockSearchOptions &options,
                          BlockSearchStatistics &statistics,
                          std::string &error) {
  return Searcher(reference, options, statistics).run(error);
}
