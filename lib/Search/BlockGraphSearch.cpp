//===- BlockGraphSearch.cpp - Search one- and two-kernel µGraphs ----------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Search/BlockGraphSearch.h"

#include "Mirage/Search/AbstractExpr.h"
#include "Mirage/Search/Checkpoint.h"
#include "Mirage/Search/CostModel.h"
#include "Mirage/Search/DimensionLabels.h"
#include "Mirage/Search/Z3Oracle.h"
#include "Mirage/Semantics/Equivalence.h"
#include "Mirage/Semantics/LoopPhases.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/FormatVariadic.h"

#include <atomic>
#include <chrono>
#include <map>
#include <thread>

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
/// The dimension labels of a tile (DimensionLabels.h).
using Labels = SmallVector<int32_t, 4>;

/// Throughput of the finite-field matmul on one core of this machine kind
/// (docs/Benchmarks/Verifier.md), and the trials a check usually takes.
constexpr double kFieldMultiplyAddsPerSecond = 2.5e8;
constexpr double kVerificationTrials = 3.0;
/// The combining kernel of a split µGraph aims at this many blocks.
constexpr int64_t kCombineBlocks = 128;
/// The label of the dimension along which a split µGraph stacks its parts
/// (no reference dimension has a negative label).
constexpr int32_t kStackedLabel = -1;
/// The label of a dimension reduced to extent 1.
constexpr int32_t kReducedLabel = -2;

/// A block op the search may add: its kind, for accumulators the kind of
/// accumulation, for reductions the size the last dimension is reduced to,
/// for rms_norm its group size and epsilon.
struct OpChoice {
  OpKind kind;
  AccumKind accum = AccumKind::Sum;
  int64_t size = 1;
  double eps = 0.0;
};

/// A tile of the body being built.
struct Tile {
  Shape shape;
  Labels labels;
  ExprId expr;
  LoopPhase phase;
  /// The body value holding it.
  int32_t value;
};

/// One launch configuration: grid axes over output dimensions, or one axis
/// splitting a reduced dimension, and the for-loop range.
struct Launch {
  std::array<int64_t, 3> grid = {1, 1, 1};
  /// Output dimension of each grid axis, or -1.
  std::array<int32_t, 3> outputDims = {-1, -1, -1};
  /// The grid axis that splits the input dimensions labelled `splitLabel`
  /// (the first kernel of a split µGraph), or -1.
  int32_t splitAxis = -1;
  int32_t splitLabel = 0;
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
  // rms_norm's groups must lie within the tile's rows.
  if (choice.kind == OpKind::RmsNorm)
    return a.back() % choice.size == 0 ? std::optional<Shape>(a) : std::nullopt;
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
  case OpKind::Reduction: {
    Shape result(a);
    if (result.back() == choice.size || result.back() % choice.size != 0)
      return std::nullopt;
    result.back() = choice.size;
    return result;
  }
  case OpKind::ForloopAccum: {
    Shape result(a);
    if (choice.accum != AccumKind::Sum) {
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

/// Whether dimensions of extents `a` and `b` may meet in an op: when they
/// carry the same label or one is broadcast.
bool agree(int64_t a, int32_t labelA, int64_t b, int32_t labelB) {
  return a == 1 || b == 1 || labelA == labelB;
}

/// The labels of `choice`'s result on `operands`, or nothing when the op
/// would mix dimensions the reference keeps apart or reduce one it keeps.
std::optional<Labels> inferLabels(const OpChoice &choice,
                                  ArrayRef<const Tile *> operands,
                                  const DimensionLabels &reference) {
  const Tile &a = *operands[0];
  if (sem::isUnary(choice.kind) || choice.kind == OpKind::RmsNorm)
    return a.labels;
  if (sem::isBinary(choice.kind) || choice.kind == OpKind::Matmul) {
    const Tile &b = *operands[1];
    size_t rank = a.shape.size();
    bool matmul = choice.kind == OpKind::Matmul;
    Labels result;
    for (size_t d = 0; d < rank; ++d) {
      if (matmul && d + 2 >= rank)
        continue;
      if (!agree(a.shape[d], a.labels[d], b.shape[d], b.labels[d]))
        return std::nullopt;
      result.push_back(a.shape[d] == 1 ? b.labels[d] : a.labels[d]);
    }
    if (!matmul)
      return result;
    if (!agree(a.shape[rank - 1], a.labels[rank - 1], b.shape[rank - 2],
               b.labels[rank - 2]))
      return std::nullopt;
    result.push_back(a.labels[rank - 2]);
    result.push_back(b.labels[rank - 1]);
    return result;
  }
  bool reducesLast = choice.kind == OpKind::Reduction ||
                     choice.accum != AccumKind::Sum;
  if (!reducesLast)
    return a.labels;
  if (!reference.isReduced(a.labels.back()))
    return std::nullopt;
  Labels result(a.labels);
  // A strided reduction to a larger size gives back the output's last
  // dimension (the combining kernel of a split µGraph).
  result.back() = choice.size == 1 ? kReducedLabel : reference.output.back();
  return result;
}

/// Whether `tile` lies along the output's dimensions.
bool matchesOutput(const Tile &tile, const DimensionLabels &reference) {
  for (auto [extent, label, outputLabel] :
       llvm::zip(tile.shape, tile.labels, reference.output))
    if (extent > 1 && label != outputLabel)
      return false;
  return true;
}

/// The tile of an output of `shape` each block of `launch` computes.
Shape getOutputTile(ArrayRef<int64_t> shape, const Launch &launch) {
  Shape tile(shape);
  for (unsigned axis = 0; axis < 2; ++axis)
    if (launch.outputDims[axis] >= 0)
      tile[launch.outputDims[axis]] /= launch.grid[axis];
  return tile;
}

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
  bool outOfTime() {
    if (options.timeLimitSeconds > 0.0 &&
        elapsedSeconds() > options.timeLimitSeconds)
      timedOut = true;
    return timedOut;
  }

  const sem::Program &reference;
  const BlockSearchOptions &options;
  std::chrono::steady_clock::time_point start;
  std::atomic<bool> timedOut = false;
  std::atomic<int64_t> complete = 0;
};

/// What every graph_def one worker builds shares: the expressions, the
/// oracle, the statistics and the shared state.
class SearchContext {
public:
  SearchContext(SharedState &shared, BlockSearchStatistics &statistics)
      : options(shared.options), statistics(statistics), shared(shared),
        oracle(pool, options.oracleTimeoutMs) {}

  bool outOfTime() { return shared.outOfTime(); }
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
  SmallVector<ValueType> inputTypes;
  SmallVector<ExprId> inputExprs;
  /// Dimension labels of the inputs and the output (DimensionLabels.h).
  DimensionLabels labels;
  std::vector<OpChoice> vocabulary;
  unsigned maxOps;
  /// The µGraph's result: its shape guides the grid and the imaps, its
  /// element type is every computed tile's.
  ValueType output;
  /// Imap and fmap overrides (BlockSearchOptions), empty when free.
  ArrayRef<int32_t> imaps;
  ArrayRef<int32_t> fmaps;
};

/// Called on every partial body with at least one op, newest tile last;
/// returns true to stop the enumeration.
using StateVisitor = llvm::function_ref<bool(const Launch &, const Graph &,
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
  void searchOps(unsigned ops,
                 const std::pair<unsigned, SmallVector<int32_t, 2>> &last);
  /// Tries `choice` on the tiles at `operands`.
  void tryOp(unsigned choiceIndex, ArrayRef<int32_t> operands, unsigned ops);
  bool stopping() { return stopped || context.outOfTime(); }

  SearchContext &context;
  const KernelSpace &space;
  StateVisitor visit;
  Launch launch;
  Graph body;
  SmallVector<Tile> tiles;
  bool stopped = false;
  /// The configuration to explore (-1: all), or none when counting.
  int64_t onlyConfiguration = -1;
  bool counting = false;
  /// Configurations met so far.
  int64_t configurations = 0;
};

void BodyEnumerator::startLoads(const Launch &newLaunch) {
  launch = newLaunch;
  body = Graph();
  body.grid = launch.grid;
  body.forloop = launch.forloop;
  for (const ValueType &type : space.inputTypes) {
    body.inputs.push_back(body.values.size());
    body.values.push_back(type);
  }
  tiles.clear();
  configurations = 0;
  searchLoads(0);
}

bool BodyEnumerator::run(const Launch &newLaunch, int64_t configuration) {
  onlyConfiguration = configuration;
  counting = false;
  startLoads(newLaunch);
  return !stopped;
}

int64_t BodyEnumerator::countConfigurations(const Launch &newLaunch) {
  counting = true;
  startLoads(newLaunch);
  counting = false;
  return configurations;
}

void BodyEnumerator::searchLoads(size_t index) {
  if (stopping())
    return;
  if (index == space.inputTypes.size()) {
    // A split launch must split some input.
    if (launch.splitAxis >= 0 && llvm::none_of(body.nodes, [&](const Node &n) {
          return n.map[launch.splitAxis] >= 0;
        }))
      return;
    int64_t configuration = configurations++;
    if (counting ||
        (onlyConfiguration >= 0 && configuration != onlyConfiguration))
      return;
    ++context.statistics.configurations;
    searchOps(0, {0, {}});
    return;
  }
  // A grid axis splits an input along a dimension labelled as the output
  // dimension it splits (or the split label), or replicates it; the
  // for-loop splits one other, reduced, dimension of the tile, or none.
  ArrayRef<int64_t> shape = space.inputTypes[index].shape;
  ArrayRef<int32_t> labels = space.labels.inputs[index];
  SmallVector<SmallVector<int32_t, 4>, 3> axisDims(2);
  for (unsigned axis = 0; axis < 2; ++axis) {
    axisDims[axis].push_back(-1);
    std::optional<int32_t> label;
    if (static_cast<int32_t>(axis) == launch.splitAxis)
      label = launch.splitLabel;
    else if (launch.outputDims[axis] >= 0)
      label = space.labels.output[launch.outputDims[axis]];
    for (auto [d, dimLabel] : llvm::enumerate(labels))
      if (label == dimLabel && shape[d] % launch.grid[axis] == 0)
        axisDims[axis].push_back(d);
  }
  for (int32_t mx : axisDims[0])
    for (int32_t my : axisDims[1]) {
      if ((mx >= 0 && mx == my) ||
          (!space.imaps.empty() && (space.imaps[2 * index] != mx ||
                                    space.imaps[2 * index + 1] != my)))
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
              space.labels.isReduced(labels[d]) &&
              static_cast<int32_t>(d) != mx && static_cast<int32_t>(d) != my)
            fmaps.push_back(d);
      for (int32_t fmap : fmaps) {
        if (!space.fmaps.empty() && space.fmaps[index] != fmap)
          continue;
        Shape loaded(tile);
        if (fmap >= 0)
          loaded[fmap] /= launch.forloop;
        Node node = makeNode(OpKind::InputLoader);
        node.operands = {body.inputs[index]};
        node.results = {static_cast<int32_t>(body.values.size())};
        node.map = {mx, my, -1};
        node.dim = fmap;
        body.values.push_back({loaded, space.inputTypes[index].elementType});
        body.nodes.push_back(node);
        tiles.push_back({loaded, Labels(labels), space.inputExprs[index],
                         fmap >= 0 ? LoopPhase::InLoop : LoopPhase::Invariant,
                         node.results[0]});
        searchLoads(index + 1);
        tiles.pop_back();
        body.nodes.pop_back();
        body.values.pop_back();
      }
    }
}

void BodyEnumerator::searchOps(
    unsigned ops, const std::pair<unsigned, SmallVector<int32_t, 2>> &last) {
  if (stopping())
    return;
  ++context.statistics.states;
  if (ops > 0 && visit(launch, body, tiles)) {
    stopped = true;
    return;
  }
  if (ops == space.maxOps)
    return;

  size_t numTiles = tiles.size();
  for (auto [choiceIndex, choice] : llvm::enumerate(space.vocabulary)) {
    if (stopping())
      return;
    unsigned arity = sem::isBinary(choice.kind) || choice.kind == OpKind::Matmul
                         ? 2
                         : 1;
    if (choice.kind == OpKind::ForloopAccum && launch.forloop == 1)
      continue;
    SmallVector<int32_t, 2> operands(arity, 0);
    // Every operand tuple, in lexicographic order.
    while (true) {
      // Canonical order: a new op either uses the newest tile or comes after
      // the previous op in (choice, operands) order, so independent ops are
      // added in one order only.
      bool usesNewest = llvm::is_contained(operands, int32_t(numTiles - 1));
      std::pair<unsigned, SmallVector<int32_t, 2>> key = {choiceIndex,
                                                          operands};
      if (ops == 0 || usesNewest || key >= last)
        tryOp(choiceIndex, operands, ops);
      // Next operand tuple.
      int position = arity - 1;
      while (position >= 0 && ++operands[position] == int32_t(numTiles))
        operands[position--] = 0;
      if (position < 0)
        break;
    }
  }
}

void BodyEnumerator::tryOp(unsigned choiceIndex, ArrayRef<int32_t> operands,
                           unsigned ops) {
  const OpChoice &choice = space.vocabulary[choiceIndex];
  bool accumulates = choice.kind == OpKind::ForloopAccum;
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
  if (!shape)
    return;
  std::optional<Labels> labels = inferLabels(choice, inputs, space.labels);
  if (!labels)
    return;
  Node node = makeNode(choice.kind);
  for (int32_t operand : operands)
    node.operands.push_back(tiles[operand].value);
  node.results = {static_cast<int32_t>(body.values.size())};
  node.accum = choice.accum;
  if (choice.kind == OpKind::Reduction) {
    node.dim = shape->size() - 1;
    node.size = choice.size;
  }
  if (choice.kind == OpKind::RmsNorm) {
    node.size = choice.size;
    node.scalar = choice.eps;
  }
  SmallVector<ExprId, 2> operandExprs;
  for (const Tile *tile : inputs)
    operandExprs.push_back(tile->expr);
  body.values.push_back({*shape, space.output.elementType});
  ExprId expr = computeNodeExpression(context.pool, body, node, operandExprs);
  bool redundant = llvm::any_of(tiles, [&](const Tile &tile) {
    return tile.expr == expr && tile.shape == *shape &&
           tile.labels == *labels && tile.phase == phase;
  });
  if (redundant) {
    body.values.pop_back();
    return;
  }
  Verdict verdict = context.oracle.isSubexpression(expr, context.target);
  if (verdict == Verdict::No ||
      (verdict == Verdict::Unknown && context.options.pruneUnknown)) {
    ++context.statistics.pruned;
    body.values.pop_back();
    return;
  }
  body.nodes.push_back(node);
  tiles.push_back({*shape, *labels, expr, phase, node.results[0]});
  searchOps(ops + 1, {choiceIndex, SmallVector<int32_t, 2>(operands)});
  tiles.pop_back();
  body.nodes.pop_back();
  body.values.pop_back();
}

/// Whether `tile` may be saved: computed after the loop, or in a body
/// without one.
bool isSaveable(const Launch &launch, const Tile &tile) {
  return tile.phase == LoopPhase::PostLoop ||
         (launch.forloop == 1 && tile.phase != LoopPhase::PostLoop);
}

/// `body` without the ops none of `saved` depends on, plus an output_saver
/// with `map` for each of `saved` (into a kernel tensor of the type in
/// `savedTypes`).
Graph saveTiles(const Graph &body, ArrayRef<int32_t> saved,
                ArrayRef<ValueType> savedTypes, std::array<int32_t, 3> map) {
  Graph result = body;
  result.nodes.clear();
  llvm::DenseSet<int32_t> live(saved.begin(), saved.end());
  for (const Node &node : llvm::reverse(body.nodes))
    if (live.contains(node.results[0]))
      live.insert(node.operands.begin(), node.operands.end());
  for (const Node &node : body.nodes)
    if (live.contains(node.results[0]))
      result.nodes.push_back(node);
  for (auto [value, type] : llvm::zip(saved, savedTypes)) {
    Node saver = makeNode(OpKind::OutputSaver);
    saver.operands = {value};
    saver.results = {static_cast<int32_t>(result.values.size())};
    saver.map = map;
    result.values.push_back(type);
    result.nodes.push_back(saver);
    result.outputs.push_back(saver.results[0]);
  }
  return result;
}

/// Appends a graph_def of body `bodyIndex` on `operands` to `kernel`;
/// returns its results.
SmallVector<int32_t> appendGraphDef(Graph &kernel, ArrayRef<int32_t> operands,
                                    ArrayRef<ValueType> resultTypes,
                                    int32_t bodyIndex) {
  Node graphDef = makeNode(OpKind::GraphDef);
  graphDef.operands.assign(operands.begin(), operands.end());
  for (const ValueType &type : resultTypes) {
    graphDef.results.push_back(kernel.values.size());
    kernel.values.push_back(type);
  }
  graphDef.body = bodyIndex;
  kernel.nodes.push_back(graphDef);
  return SmallVector<int32_t>(graphDef.results.begin(), graphDef.results.end());
}

/// The launch of a split µGraph's combining kernel: grid axes over the
/// outermost output dimensions but the last (where the parts are stacked),
/// about kCombineBlocks blocks.
Launch getCombineLaunch(ArrayRef<int64_t> shape,
                        ArrayRef<int64_t> gridSizes) {
  Launch launch;
  int64_t blocks = 1;
  unsigned axis = 0;
  for (auto [d, extent] : llvm::enumerate(shape.drop_back())) {
    int64_t best = 1;
    for (int64_t size : gridSizes)
      if (size > best && extent % size == 0 && blocks * size <= kCombineBlocks)
        best = size;
    if (best == 1)
      continue;
    launch.grid[axis] = best;
    launch.outputDims[axis] = d;
    blocks *= best;
    if (++axis == 2)
      break;
  }
  return launch;
}

/// The block ops the reference's ops suggest.
std::vector<OpChoice> chooseVocabulary(const Graph &kernel) {
  llvm::SmallSetVector<OpKind, 8> kinds;
  bool reduces = false, normalises = false;
  SmallVector<OpChoice> norms;
  for (const Node &node : kernel.nodes) {
    if (node.kind == OpKind::RmsNorm) {
      normalises = true;
      // A block-level rms_norm of the same groups, when a tile holds them.
      OpChoice norm{OpKind::RmsNorm, AccumKind::Sum, node.size, node.scalar};
      if (llvm::none_of(norms, [&](const OpChoice &other) {
            return other.size == norm.size && other.eps == norm.eps;
          }))
        norms.push_back(norm);
    } else if (node.kind == OpKind::Reduction)
      reduces = true;
    else
      kinds.insert(node.kind);
  }
  if (normalises)
    kinds.insert(sem::toOpKind(ElementwiseKind::Div));
  std::vector<OpChoice> vocabulary;
  for (OpKind kind : kinds)
    vocabulary.push_back({kind});
  llvm::append_range(vocabulary, norms);
  if (reduces)
    vocabulary.push_back({OpKind::Reduction});
  vocabulary.push_back({OpKind::ForloopAccum, AccumKind::Sum});
  if (reduces)
    vocabulary.push_back({OpKind::ForloopAccum, AccumKind::SumLast});
  if (normalises)
    vocabulary.push_back({OpKind::ForloopAccum, AccumKind::RmsLast});
  return vocabulary;
}

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
    return BodyEnumerator(context, space, [](const Launch &, const Graph &,
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
  /// output.
  bool visitSingle(const Launch &launch, const Graph &body,
                   ArrayRef<Tile> tiles);
  /// Keeps a split µGraph when a combining kernel turns the unused tiles
  /// into the reference's output.
  bool visitSplit(const Launch &launch, const Graph &body,
                  ArrayRef<Tile> tiles);
  /// The body of a kernel computing the output from the partial results of
  /// `parts` (types and expressions), or nothing. Cached.
  const std::optional<Graph> &combine(ArrayRef<ValueType> partTypes,
                                      ArrayRef<ExprId> partExprs,
                                      int64_t split);
  /// Records a complete candidate.
  bool keep(sem::Program candidate) {
    ++statistics.complete;
    ++shared.complete;
    found->push_back(std::move(candidate));
    return done();
  }

  SharedState &shared;
  SearchContext context;
  KernelSpace space;
  /// The parts' expressions and shapes, and the split.
  using CombineKey =
      std::tuple<SmallVector<ExprId>, SmallVector<Shape>, int64_t>;
  /// Combining kernels found (or not) so far.
  std::map<CombineKey, std::optional<Graph>> combined;
  /// Where explore() puts candidates.
  std::vector<sem::Program> *found = nullptr;
};

void Worker::explore(const Launch &launch, int64_t configuration,
                     std::vector<sem::Program> &out) {
  found = &out;
  auto visit = [&](const Launch &launch, const Graph &body,
                   ArrayRef<Tile> tiles) {
    return launch.splitAxis >= 0 ? visitSplit(launch, body, tiles)
                                 : visitSingle(launch, body, tiles);
  };
  BodyEnumerator(context, space, visit).run(launch, configuration);
  found = nullptr;
}

/// A kernel graph over `inputs` of the reference.
Graph makeKernelGraph(ArrayRef<ValueType> inputs) {
  Graph kernel;
  for (const ValueType &type : inputs) {
    kernel.inputs.push_back(kernel.values.size());
    kernel.values.push_back(type);
  }
  return kernel;
}

bool Worker::visitSingle(const Launch &launch, const Graph &body,
                         ArrayRef<Tile> tiles) {
  const Tile &newest = tiles.back();
  if (!isSaveable(launch, newest) ||
      newest.shape != getOutputTile(space.output.shape, launch) ||
      !matchesOutput(newest, space.labels) ||
      !context.equivalent(newest.expr, context.target))
    return done();
  sem::Program candidate;
  Graph kernel = makeKernelGraph(space.inputTypes);
  kernel.outputs.assign(
      {appendGraphDef(kernel, kernel.inputs, space.output, 1)[0]});
  candidate.graphs = {
      std::move(kernel),
      saveTiles(body, newest.value, space.output,
                {launch.outputDims[0], launch.outputDims[1], -1})};
  return keep(std::move(candidate));
}

bool Worker::visitSplit(const Launch &launch, const Graph &body,
                        ArrayRef<Tile> tiles) {
  // The partial results are the computed tiles no op uses.
  llvm::DenseSet<int32_t> used;
  for (const Node &node : body.nodes)
    used.insert(node.operands.begin(), node.operands.end());
  SmallVector<const Tile *> parts;
  for (const Tile &tile : tiles.drop_front(space.inputTypes.size()))
    if (!used.contains(tile.value))
      parts.push_back(&tile);
  if (parts.size() > shared.options.maxSplitOutputs ||
      llvm::any_of(parts, [&](const Tile *tile) {
        return !isSaveable(launch, *tile);
      }))
    return done();
  // Stacked side by side, in body order (expression ids depend on the
  // worker, and the output must not): x as in the output, y along the last
  // dimension.
  SmallVector<ValueType> partTypes;
  SmallVector<ExprId> partExprs;
  SmallVector<int32_t> partValues;
  for (const Tile *tile : parts) {
    Shape shape(tile->shape);
    if (launch.outputDims[0] >= 0)
      shape[launch.outputDims[0]] *= launch.grid[0];
    shape.back() *= launch.grid[1];
    partTypes.push_back({shape, space.output.elementType});
    partExprs.push_back(tile->expr);
    partValues.push_back(tile->value);
  }
  const std::optional<Graph> &combiner =
      combine(partTypes, partExprs, launch.grid[1]);
  if (!combiner)
    return done();

  sem::Program candidate;
  Graph kernel = makeKernelGraph(space.inputTypes);
  SmallVector<int32_t> partials =
      appendGraphDef(kernel, kernel.inputs, partTypes, 1);
  kernel.outputs.assign({appendGraphDef(kernel, partials, space.output, 2)[0]});
  candidate.graphs = {
      std::move(kernel),
      saveTiles(body, partValues, partTypes,
                {launch.outputDims[0],
                 static_cast<int32_t>(space.output.shape.size() - 1), -1}),
      *combiner};
  return keep(std::move(candidate));
}

const std::optional<Graph> &Worker::combine(ArrayRef<ValueType> partTypes,
                                            ArrayRef<ExprId> partExprs,
                                            int64_t split) {
  CombineKey key;
  std::get<0>(key).assign(partExprs.begin(), partExprs.end());
  for (const ValueType &type : partTypes)
    std::get<1>(key).emplace_back(type.shape.begin(), type.shape.end());
  std::get<2>(key) = split;
  auto [entry, inserted] = combined.try_emplace(std::move(key));
  std::optional<Graph> &result = entry->second;
  if (!inserted)
    return result;

  // Strided reductions of each part's last dimension back to the tile's
  // extent (the sum over the split), then the reference's elementwise ops.
  KernelSpace parts;
  parts.inputTypes.assign(partTypes.begin(), partTypes.end());
  parts.inputExprs.assign(partExprs.begin(), partExprs.end());
  parts.output = space.output;
  // The parts' dimensions are the output's, but the stacked last one.
  parts.labels.output = space.labels.output;
  for (size_t i = 0; i < partTypes.size(); ++i) {
    parts.labels.inputs.emplace_back(space.labels.output);
    parts.labels.inputs.back().back() = kStackedLabel;
  }
  parts.maxOps = 2 * partTypes.size() + 1;
  llvm::SmallSetVector<int64_t, 4> sizes;
  for (const ValueType &type : partTypes)
    sizes.insert(type.shape.back() / split);
  for (int64_t size : sizes)
    parts.vocabulary.push_back({OpKind::Reduction, AccumKind::Sum, size});
  for (const OpChoice &choice : space.vocabulary)
    if (sem::isUnary(choice.kind) || sem::isBinary(choice.kind))
      parts.vocabulary.push_back(choice);
  auto visitCombined = [&](const Launch &launch, const Graph &body,
                           ArrayRef<Tile> tiles) {
    const Tile &newest = tiles.back();
    if (newest.shape != getOutputTile(space.output.shape, launch) ||
        !matchesOutput(newest, parts.labels) ||
        !context.equivalent(newest.expr, context.target))
      return false;
    result = saveTiles(body, newest.value, space.output,
                       {launch.outputDims[0], launch.outputDims[1], -1});
    return true;
  };
  BodyEnumerator enumerator(context, parts, visitCombined);
  enumerator.run(
      getCombineLaunch(space.output.shape, shared.options.gridSizes));
  return result;
}

/// Searches the µGraphs of one reference: for-loop range by range, the
/// launches shared among the workers, then the verification of the range's
/// candidates that may enter the best K.
class Searcher {
public:
  Searcher(const sem::Program &reference, const BlockSearchOptions &options,
           BlockSearchStatistics &statistics)
      : reference(reference), options(options), statistics(statistics),
        shared(reference, options) {}

  FailureOr<std::vector<RankedProgram>> run(std::string &error);

private:
  /// Fails for overrides that do not fit the reference.
  LogicalResult checkOverrides(std::string &error) const;
  /// Restores the state a checkpoint recorded, if any.
  LogicalResult resume(std::string &error);
  /// Records the state after a range in the checkpoint, if any.
  LogicalResult saveCheckpoint(std::string &error) const;
  /// The launches of one-kernel µGraphs and of the first kernel of split
  /// µGraphs with for-loop range `forloop`.
  SmallVector<Launch> getLaunches(int64_t forloop) const;
  /// Explores `launches` with every worker, one configuration of a launch
  /// at a time; returns the complete candidates in the order one thread
  /// would find them.
  std::vector<sem::Program> explore(ArrayRef<Launch> launches);
  /// Verifies `candidates`, cheapest first, while they may enter the best
  /// K; false when the time limit stopped it.
  bool verify(std::vector<sem::Program> candidates);
  /// Whether verifying `program` (its estimated field multiply-adds over the
  /// usual trials) fits in the time left.
  bool affordable(const sem::Program &program);
  /// The statistics: the checkpoint's, the workers' and this run's.
  BlockSearchStatistics collectStatistics() const;
  /// Seconds since the search began, runs resumed from a checkpoint
  /// included.
  double totalSeconds() const {
    return resumed.seconds + shared.elapsedSeconds();
  }
  void reportProgress(int64_t forloop, size_t launches) const;

  const sem::Program &reference;
  const BlockSearchOptions &options;
  BlockSearchStatistics &statistics;
  SharedState shared;
  /// What the reference's graph_defs are made of (expressions per worker).
  KernelSpace prototype;
  std::vector<std::unique_ptr<Worker>> workers;
  /// Checked and verified candidates, and when.
  BlockSearchStatistics verification;
  /// What runs resumed from the checkpoint had done.
  BlockSearchStatistics resumed;
  std::vector<int64_t> rangesDone;
  std::string fingerprint;
  /// Created on first use: it evaluates the reference.
  std::optional<sem::EquivalenceChecker> checker;
  /// The best verified candidates, cheapest first.
  std::vector<RankedProgram> found;
};

LogicalResult Searcher::checkOverrides(std::string &error) const {
  // `perItem` entries for each of the items (inputs or the output) whose
  // ranks are `ranks`.
  auto check = [&](StringRef name, ArrayRef<int32_t> values, size_t perItem,
                   StringRef items, ArrayRef<int64_t> ranks) {
    size_t expected = perItem * ranks.size();
    if (!values.empty() && values.size() != expected) {
      error = llvm::formatv("{0} has {1} entries; the reference has {2} "
                            "{3}{4}, so it needs {5}",
                            name, values.size(), ranks.size(), items,
                            ranks.size() == 1 ? "" : "s", expected)
                  .str();
      return false;
    }
    for (auto [i, value] : llvm::enumerate(values)) {
      int64_t rank = ranks[i / perItem];
      if (value < -1 || value >= rank) {
        error = llvm::formatv("{0} entry {1} is {2}, not -1 or a dimension "
                              "of {3} {4} (rank {5})",
                              name, i, value, items, i / perItem, rank)
                    .str();
        return false;
      }
    }
    return true;
  };
  SmallVector<int64_t> inputRanks;
  for (const ValueType &type : prototype.inputTypes)
    inputRanks.push_back(type.shape.size());
  int64_t outputRank = prototype.output.shape.size();
  return success(check("omap", options.omap, 2, "output", outputRank) &&
                 check("imaps", options.imaps, 2, "input", inputRanks) &&
                 check("fmaps", options.fmaps, 1, "input", inputRanks));
}

LogicalResult Searcher::resume(std::string &error) {
  if (options.checkpointPath.empty())
    return success();
  FailureOr<std::optional<CheckpointEntry>> entry = readCheckpoint(
      options.checkpointPath, options.checkpointKey, error);
  if (failed(entry))
    return failure();
  if (!*entry)
    return success();
  if ((*entry)->fingerprint != fingerprint) {
    error = ("checkpoint '" + Twine(options.checkpointPath) + "' records a search of '" +
             options.checkpointKey +
             "' with another reference or other options; remove the file "
             "or pass another one")
                .str();
    return failure();
  }
  resumed = (*entry)->statistics;
  rangesDone = (*entry)->rangesDone;
  for (sem::Program &program : (*entry)->candidates) {
    CostEstimate cost = estimateCost(program, *options.chip);
    found.push_back({std::move(program), cost});
  }
  return success();
}

LogicalResult Searcher::saveCheckpoint(std::string &error) const {
  if (options.checkpointPath.empty())
    return success();
  CheckpointEntry entry;
  entry.fingerprint = fingerprint;
  entry.rangesDone = rangesDone;
  entry.statistics = collectStatistics();
  for (const RankedProgram &candidate : found)
    entry.candidates.push_back(candidate.program);
  return writeCheckpoint(options.checkpointPath, options.checkpointKey, entry,
                         error);
}

FailureOr<std::vector<RankedProgram>> Searcher::run(std::string &error) {
  if (failed(checkSearchable(reference, error)))
    return failure();
  const Graph &kernel = reference.getKernelGraph();
  prototype.output = kernel.values[kernel.outputs.front()];
  for (int32_t input : kernel.inputs)
    prototype.inputTypes.push_back(kernel.values[input]);
  prototype.labels = labelDimensions(reference);
  prototype.maxOps = options.maxOps;
  prototype.vocabulary = chooseVocabulary(kernel);
  prototype.imaps = options.imaps;
  prototype.fmaps = options.fmaps;
  if (failed(checkOverrides(error)))
    return failure();
  fingerprint = fingerprintSearch(reference, options);
  if (failed(resume(error)))
    return failure();

  for (unsigned i = 0; i < std::max(options.threads, 1u); ++i)
    workers.push_back(std::make_unique<Worker>(shared, prototype));
  for (int64_t forloop : options.forloopRanges) {
    if (llvm::is_contained(rangesDone, forloop)) {
      ++verification.resumedRanges;
      continue;
    }
    if (workers.front()->done())
      break;
    SmallVector<Launch> launches = getLaunches(forloop);
    std::vector<sem::Program> candidates = explore(launches);
    bool explored = !shared.timedOut;
    // A range counts as done once every candidate that could enter the
    // best K was verified.
    if (verify(std::move(candidates)) && explored) {
      rangesDone.push_back(forloop);
      ++verification.ranges;
      if (failed(saveCheckpoint(error)))
        return failure();
    }
    reportProgress(forloop, launches.size());
  }
  statistics = collectStatistics();
  return std::move(found);
}

BlockSearchStatistics Searcher::collectStatistics() const {
  BlockSearchStatistics total = resumed;
  for (const std::unique_ptr<Worker> &worker : workers) {
    addCounts(total, worker->statistics);
    total.oracleQueries += worker->getOracleStatistics().queries;
    total.oracleCacheHits += worker->getOracleStatistics().cacheHits;
  }
  addCounts(total, verification);
  if (verification.firstSeconds >= 0.0 && total.firstSeconds < 0.0)
    total.firstSeconds = verification.firstSeconds;
  if (verification.bestSeconds >= 0.0)
    total.bestSeconds = verification.bestSeconds;
  total.seconds = totalSeconds();
  total.timedOut = shared.timedOut;
  total.tooLargeToVerify = verification.tooLargeToVerify;
  total.resumedRanges = verification.resumedRanges;
  return total;
}

void Searcher::reportProgress(int64_t forloop, size_t launches) const {
  if (!options.progress)
    return;
  BlockSearchStatistics now = collectStatistics();
  *options.progress << llvm::formatv(
      "mirage-superoptimize: {0}: forloop {1}: {2} launches, {3} states, {4} "
      "complete, {5} of {6} verified",
      options.checkpointKey.empty() ? "search" : options.checkpointKey,
      forloop, launches, now.states, now.complete, now.verified, now.checked);
  if (!found.empty())
    *options.progress << llvm::formatv(", best {0:f1} us",
                                       found.front().cost.microseconds);
  *options.progress << llvm::formatv(", {0:f1} s{1}\n", now.seconds,
                                     now.timedOut ? " (time limit)" : "");
  options.progress->flush();
}

SmallVector<Launch> Searcher::getLaunches(int64_t forloop) const {
  // Grid axes x and y over distinct output dimensions (x first).
  ArrayRef<int64_t> out = prototype.output.shape;
  SmallVector<std::pair<int32_t, int64_t>> axisChoices = {{-1, 1}};
  for (auto [d, extent] : llvm::enumerate(out))
    for (int64_t size : options.gridSizes)
      if (size > 1 && extent % size == 0)
        axisChoices.push_back({static_cast<int32_t>(d), size});
  auto omapAllows = [&](unsigned axis, int32_t dim) {
    return options.omap.empty() || options.omap[axis] == dim;
  };
  SmallVector<Launch> launches;
  for (auto [dx, gx] : axisChoices)
    for (auto [dy, gy] : axisChoices) {
      if (!options.singleKernels)
        break;
      if ((dx < 0 && dy >= 0) || (dx >= 0 && dx == dy) ||
          gx * gy > options.maxBlocks || !omapAllows(0, dx) ||
          !omapAllows(1, dy))
        continue;
      Launch launch;
      launch.grid = {gx, gy, 1};
      launch.outputDims = {dx, dy, -1};
      launch.forloop = forloop;
      launches.push_back(launch);
    }
  if (!options.splitKernels)
    return launches;
  // Split launches: grid x over an output dimension (or none), grid y over
  // the input dimensions of one reduced label; the partial results are
  // stacked along the last dimension, so they need an output of rank > 1
  // whose last dimension x leaves alone.
  llvm::SmallSetVector<std::pair<int32_t, int64_t>, 4> reduced;
  for (auto [type, labels] :
       llvm::zip(prototype.inputTypes, prototype.labels.inputs))
    for (auto [extent, label] : llvm::zip(type.shape, labels))
      if (extent > 1 && prototype.labels.isReduced(label))
        reduced.insert({label, extent});
  for (auto [dx, gx] : axisChoices)
    for (auto [label, extent] : reduced)
      for (int64_t gy : options.gridSizes) {
        if (gy < 2 || extent % gy != 0 || gx * gy > options.maxBlocks ||
            out.size() < 2 || dx == static_cast<int32_t>(out.size()) - 1 ||
            !omapAllows(0, dx))
          continue;
        Launch launch;
        launch.grid = {gx, gy, 1};
        launch.outputDims = {dx, -1, -1};
        launch.splitAxis = 1;
        launch.splitLabel = label;
        launch.forloop = forloop;
        launches.push_back(launch);
      }
  return launches;
}

std::vector<sem::Program> Searcher::explore(ArrayRef<Launch> launches) {
  // One task per configuration: a launch's configurations can differ in
  // cost by orders of magnitude, and one launch may hold most of a range.
  std::vector<std::pair<size_t, int64_t>> tasks;
  for (auto [i, launch] : llvm::enumerate(launches))
    for (int64_t c = 0, e = workers.front()->countConfigurations(launch);
         c < e; ++c)
      tasks.push_back({i, c});
  std::vector<std::vector<sem::Program>> results(tasks.size());
  std::atomic<size_t> next = 0;
  auto work = [&](Worker &worker) {
    for (size_t i = next++; i < tasks.size() && !worker.done(); i = next++)
      worker.explore(launches[tasks[i].first], tasks[i].second, results[i]);
  };
  if (workers.size() == 1) {
    work(*workers.front());
  } else {
    std::vector<std::thread> threads;
    for (std::unique_ptr<Worker> &worker : workers)
      threads.emplace_back(work, std::ref(*worker));
    for (std::thread &thread : threads)
      thread.join();
  }
  std::vector<sem::Program> candidates;
  for (std::vector<sem::Program> &programs : results)
    for (sem::Program &program : programs)
      candidates.push_back(std::move(program));
  return candidates;
}

bool Searcher::affordable(const sem::Program &program) {
  if (options.timeLimitSeconds <= 0.0)
    return true;
  double seconds = estimateCost(program, *options.chip).multiplyAdds *
                   kVerificationTrials / kFieldMultiplyAddsPerSecond;
  return shared.elapsedSeconds() + seconds <= options.timeLimitSeconds;
}

bool Searcher::verify(std::vector<sem::Program> candidates) {
  std::vector<std::pair<CostEstimate, size_t>> order;
  for (auto [i, candidate] : llvm::enumerate(candidates))
    order.push_back({estimateCost(candidate, *options.chip), i});
  // Equal costs keep the order found, so results are deterministic.
  llvm::sort(order, [](const auto &a, const auto &b) {
    if (a.first < b.first || b.first < a.first)
      return a.first < b.first;
    return a.second < b.second;
  });
  auto isCheaper = [](const CostEstimate &cost, const RankedProgram &other) {
    return cost < other.cost;
  };
  for (auto &[cost, i] : order) {
    if (found.size() >= options.maxCandidates &&
        !isCheaper(cost, found.back()))
      break;
    // The time limit bounds verification too: a candidate is checked only
    // if its estimated cost fits in the time left; the checker evaluates
    // the reference once per trial.
    if (shared.outOfTime())
      return false;
    if (!affordable(candidates[i]) || (!checker && !affordable(reference))) {
      verification.tooLargeToVerify = true;
      return false;
    }
    if (options.isCompilable && !options.isCompilable(candidates[i])) {
      ++verification.uncompilable;
      continue;
    }
    if (!checker) {
      std::string error;
      sem::EquivalenceOptions checkOptions;
      checkOptions.seed = options.seed;
      FailureOr<sem::EquivalenceChecker> created =
          sem::EquivalenceChecker::create(reference, checkOptions, error);
      if (failed(created))
        return false;
      checker.emplace(std::move(*created));
    }
    ++verification.checked;
    std::string error;
    FailureOr<sem::EquivalenceVerdict> verdict =
        checker->check(candidates[i], error);
    if (failed(verdict) || !verdict->equivalent)
      continue;
    ++verification.verified;
    double now = totalSeconds();
    if (verification.firstSeconds < 0.0 && resumed.firstSeconds < 0.0)
      verification.firstSeconds = now;
    auto position =
        std::upper_bound(found.begin(), found.end(), cost, isCheaper);
    if (position == found.begin())
      verification.bestSeconds = now;
    found.insert(position, {std::move(candidates[i]), cost});
    if (found.size() > options.maxCandidates)
      found.pop_back();
  }
  return true;
}

} // namespace

LogicalResult search::checkSearchable(const sem::Program &reference,
                                      std::string &error) {
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
  return success();
}

void search::addCounts(BlockSearchStatistics &total,
                       const BlockSearchStatistics &other) {
  total.configurations += other.configurations;
  total.states += other.states;
  total.pruned += other.pruned;
  total.complete += other.complete;
  total.checked += other.checked;
  total.verified += other.verified;
  total.uncompilable += other.uncompilable;
  total.oracleQueries += other.oracleQueries;
  total.oracleCacheHits += other.oracleCacheHits;
  total.ranges += other.ranges;
}

FailureOr<std::vector<RankedProgram>>
search::searchBlockGraphs(const sem::Program &reference,
                          const BlockSearchOptions &options,
                          BlockSearchStatistics &statistics,
                          std::string &error) {
  return Searcher(reference, options, statistics).run(error);
}
