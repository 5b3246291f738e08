//===- Worker.cpp - One thread's share of a search ------------------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Worker.h"

#include "Mirage/Search/Materialize.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::mirage;
using namespace mlir::mirage::search;
using namespace mlir::mirage::search::detail;
using sem::AccumKind;
using sem::Graph;
using sem::LoopPhase;
using sem::Node;
using sem::OpKind;
using sem::ValueType;

namespace {

/// The combining kernel of a split µGraph aims at this many blocks per SM
/// of the chip: it reads every partial result once, so it wants the whole
/// GPU. (A fixed 128 gave gqa_bs8's combining kernel 128 blocks of 32 rows,
/// where the hand-written µGraph has 512 of 8.)
constexpr int64_t kCombineBlocksPerSM = 4;

/// The combining kernel's blocks have a thread for this many elements of
/// their largest tile (getTileThreads), where other bodies without matmuls
/// have one for kElementsPerThread: its threads each add a few parts of
/// one output vector, so most of a block of the default size waits at its
/// barriers. Measured on an H200 (2026-11-29; docs/Benchmarks/
/// KernelProfiles.md, "Attention: the combining kernel"): MQA bs1's winner
/// 8.81 -> 7.83 µs, GQA bs8's 20.09 -> 19.39 µs; blocks of at least
/// kMinBlockThreads keep GQA bs1's.
constexpr int64_t kCombineElementsPerThread = 16;

/// The least elements of the last dimension a block of a linear split's
/// combining kernel sums (makeTermsSum): rows of 128 bytes in 16-bit types.
constexpr int64_t kCombineRowElements = 64;

/// Whether `tile` may be saved: computed after the loop, or in a body
/// without one.
bool isSaveable(const Launch &launch, const Tile &tile) {
  return tile.phase == LoopPhase::PostLoop ||
         (launch.forloop == 1 && tile.phase != LoopPhase::PostLoop);
}

/// Whether the blocks of `body` exchange tiles: a cluster launch that does
/// not is the launch without its cluster.
bool exchanges(const Graph &body) {
  return llvm::any_of(body.nodes, [](const Node &node) {
    return sem::isClusterSum(node.kind);
  });
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
/// each of the largest size that divides the dimension, at most `maxBlocks`
/// blocks in all. The sizes are the listed grid sizes and, for an extent
/// that is not a power of two, its halvings down to an odd one
/// (getGridSizes): a GQA group's 7 query rows get 7 blocks rather than
/// none. (Measured on an H200: Qwen's 32k decode attention with the
/// combining kernel's 7 rows in one block, 27.28 µs; one row a block,
/// 26.98 µs; docs/Benchmarks/KernelProfiles.md.)
Launch getCombineLaunch(ArrayRef<int64_t> shape,
                        const BlockSearchOptions &options, int64_t maxBlocks) {
  Launch launch;
  int64_t blocks = 1;
  unsigned axis = 0;
  for (auto [d, extent] : llvm::enumerate(shape.drop_back())) {
    int64_t best = 1;
    for (int64_t size : getGridSizes(extent, options))
      if (size > best && blocks * size <= maxBlocks &&
          (llvm::is_contained(options.gridSizes, size) ||
           !llvm::isPowerOf2_64(size)))
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

/// The combining kernel of a linear split: the sum of the blocks' terms,
/// stacked along dimension `stacked` of `terms`, into `output`, a strided
/// reduction of that dimension. Its launch maps up to two of the other
/// dimensions, innermost first, each with the largest grid size that
/// leaves a block at least kCombineRowElements of the last dimension (a
/// row of 128 bytes in 16-bit types) and all blocks within
/// kCombineBlocksPerSM per SM of the chip.
Graph makeTermsSum(const ValueType &terms, const ValueType &output,
                   int32_t stacked, const BlockSearchOptions &options) {
  int64_t maxBlocks = kCombineBlocksPerSM * options.chip->multiprocessors;
  int32_t last = static_cast<int32_t>(output.shape.size()) - 1;
  std::array<int32_t, 3> map = {-1, -1, -1};
  Graph body;
  int64_t blocks = 1;
  unsigned axis = 0;
  for (int32_t d = last; d >= 0 && axis < 2; --d) {
    if (d == stacked)
      continue;
    int64_t extent = output.shape[d];
    int64_t least = d == last ? std::min(extent, kCombineRowElements) : 1;
    int64_t best = 1;
    for (int64_t size : getGridSizes(extent, options))
      if (size > best && extent / size >= least && blocks * size <= maxBlocks)
        best = size;
    if (best == 1)
      continue;
    body.grid[axis] = best;
    map[axis++] = d;
    blocks *= best;
  }
  Shape tile(terms.shape);
  for (unsigned a = 0; a < 3; ++a)
    if (map[a] >= 0)
      tile[map[a]] /= body.grid[a];
  body.inputs = {0};
  body.values.push_back(terms);
  Node load = makeNode(OpKind::InputLoader);
  load.operands = {0};
  load.results = {1};
  load.map = map;
  body.values.push_back({tile, terms.elementType});
  body.nodes.push_back(load);
  Node sum = makeNode(OpKind::Reduction);
  sum.operands = {1};
  sum.results = {2};
  sum.dim = stacked;
  sum.size = output.shape[stacked];
  tile[stacked] = output.shape[stacked];
  body.values.push_back({tile, output.elementType});
  body.nodes.push_back(sum);
  Graph result = saveTiles(body, {2}, {output}, map);
  result.threads = getTileThreads(result, kCombineElementsPerThread);
  return result;
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

/// The op that computes body value `value` as the kernel-level op of a
/// hoisted form (the tiles it reads, saved side by side, and that op at
/// kernel level on them), when there is one: a binary elementwise op of
/// two computed tiles that may be saved with `map` into kernel tensors
/// that broadcast to `output`. The first `numLoads` tiles are loads.
std::optional<FinalOp> getHoistableOp(const Launch &launch, const Graph &body,
                                      ArrayRef<Tile> tiles, size_t numLoads,
                                      int32_t value, const ValueType &output,
                                      std::array<int32_t, 3> map) {
  auto producer = llvm::find_if(
      body.nodes, [&](const Node &node) { return node.results[0] == value; });
  if (producer == body.nodes.end() || !sem::isBinary(producer->kind) ||
      producer->operands[0] == producer->operands[1])
    return std::nullopt;
  FinalOp hoist{*producer, {}, {}};
  for (int32_t operand : producer->operands) {
    const Tile *tile =
        llvm::find_if(tiles.drop_front(numLoads),
                      [&](const Tile &t) { return t.value == operand; });
    if (tile == tiles.end() || !isSaveable(launch, *tile) ||
        tile->shape.size() != output.shape.size())
      return std::nullopt;
    Shape shape(tile->shape);
    for (unsigned axis = 0; axis < 3; ++axis)
      if (map[axis] >= 0)
        shape[map[axis]] *= launch.grid[axis];
    for (auto [extent, whole] : llvm::zip(shape, output.shape))
      if (extent != whole && extent != 1)
        return std::nullopt;
    hoist.values.push_back(operand);
    hoist.types.push_back({shape, output.elementType});
  }
  return hoist;
}

/// Whether input `input` of `kernel` (a reference) reaches the operand of
/// one of its reductions through elementwise ops alone (attention's scores
/// through `exp`): a sum over a row that a combining kernel can take of the
/// input itself.
bool feedsReduction(const Graph &kernel, int32_t input) {
  llvm::DenseSet<int32_t> derived = {input};
  for (const Node &node : kernel.nodes) {
    bool reads = llvm::any_of(node.operands, [&](int32_t operand) {
      return derived.contains(operand);
    });
    if (!reads)
      continue;
    if (node.kind == OpKind::Reduction)
      return true;
    if (sem::isUnary(node.kind) || sem::isBinary(node.kind))
      derived.insert(node.results.begin(), node.results.end());
  }
  return false;
}

/// The only reader of value `loaded` of `body` when it is a unary
/// elementwise op, and `body` without it, its readers reading `loaded`
/// instead (the op run at kernel level on what `loaded` loads); or nothing.
std::optional<std::pair<Node, Graph>> hoistReader(const Graph &body,
                                                  int32_t loaded) {
  auto reads = [&](const Node &node) {
    return llvm::is_contained(node.operands, loaded);
  };
  if (llvm::count_if(body.nodes, reads) != 1)
    return std::nullopt;
  const Node &reader = *llvm::find_if(body.nodes, reads);
  if (!sem::isUnary(reader.kind))
    return std::nullopt;
  Graph hoisted = body;
  hoisted.nodes.clear();
  int32_t result = reader.results[0];
  for (Node node : body.nodes) {
    if (node.results[0] == result)
      continue;
    llvm::replace(node.operands, result, loaded);
    hoisted.nodes.push_back(std::move(node));
  }
  return std::make_pair(reader, std::move(hoisted));
}

/// Appends `op`, an elementwise op of a body, to `kernel` on `operands`;
/// returns its result, of type `type`.
int32_t appendKernelOp(Graph &kernel, Node op, ArrayRef<int32_t> operands,
                       const ValueType &type) {
  op.operands.assign(operands.begin(), operands.end());
  op.results = {static_cast<int32_t>(kernel.values.size())};
  kernel.values.push_back(type);
  kernel.nodes.push_back(op);
  return op.results[0];
}

} // namespace

void Worker::explore(const Launch &launch, int64_t configuration,
                     std::vector<sem::Program> &out) {
  found = &out;
  auto visit = [&](const Launch &launch, const Graph &body,
                   ArrayRef<Tile> tiles) {
    return launch.isSplit() ? visitSplit(launch, body, tiles)
                            : visitSingle(launch, body, tiles);
  };
  BodyEnumerator(context, space, visit).run(launch, configuration);
  found = nullptr;
}

bool Worker::visitSingle(const Launch &launch, const Graph &body,
                         ArrayRef<Tile> tiles) {
  const Tile &newest = tiles.back();
  if (!isSaveable(launch, newest) ||
      newest.shape != getOutputTile(space.output.shape, launch) ||
      !matchesOutput(newest, space.labels) ||
      !context.equivalent(newest.expr, context.target))
    return done();
  Graph savedBody =
      saveTiles(body, newest.value, space.output, launch.outputDims);
  if (launch.isCluster() && !exchanges(savedBody))
    return done();
  sem::Program candidate;
  Graph kernel = makeKernelGraph(space.inputTypes);
  kernel.outputs.assign(
      {appendGraphDef(kernel, kernel.inputs, space.output, 1)[0]});
  candidate.graphs = {std::move(kernel), std::move(savedBody)};
  if (keep(std::move(candidate)) || !observesDominated())
    return done();
  // The same µGraph with its final op at kernel level.
  std::optional<FinalOp> hoist =
      getHoistableOp(launch, body, tiles, space.inputTypes.size(), newest.value,
                     space.output, launch.outputDims);
  if (!hoist)
    return done();
  sem::Program hoisted;
  Graph hoistedKernel = makeKernelGraph(space.inputTypes);
  SmallVector<int32_t> saved =
      appendGraphDef(hoistedKernel, hoistedKernel.inputs, hoist->types, 1);
  hoistedKernel.outputs.assign(
      {appendKernelOp(hoistedKernel, hoist->op, saved, space.output)});
  hoisted.graphs = {
      std::move(hoistedKernel),
      saveTiles(body, hoist->values, hoist->types, launch.outputDims)};
  shared.options.observe(hoisted);
  return done();
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
      llvm::any_of(
          parts, [&](const Tile *tile) { return !isSaveable(launch, *tile); }))
    return done();
  // Stacked along the last dimension when no grid axis maps it; else the
  // output is a linear split's or none.
  int32_t last = static_cast<int32_t>(space.output.shape.size() - 1);
  if (launch.outputDims[0] == last || launch.outputDims[2] == last)
    return visitLinearSplit(launch, body, parts);
  // Stacked side by side, in body order (expression ids depend on the
  // worker, and the output must not): x and z as in the output, y along the
  // last dimension.
  SmallVector<ValueType> partTypes;
  SmallVector<ExprId> partExprs;
  SmallVector<int32_t> partValues;
  for (const Tile *tile : parts) {
    Shape shape(tile->shape);
    for (unsigned axis : {0u, 2u})
      if (launch.outputDims[axis] >= 0)
        shape[launch.outputDims[axis]] *= launch.grid[axis];
    shape.back() *= launch.grid[1];
    partTypes.push_back({shape, space.output.elementType});
    partExprs.push_back(tile->expr);
    partValues.push_back(tile->value);
  }
  const std::optional<Combiner> &combiner =
      combine(partTypes, partExprs, launch);
  if (!combiner)
    return visitLinearSplit(launch, body, parts);

  Graph first = saveTiles(body, partValues, partTypes,
                          {launch.outputDims[0],
                           static_cast<int32_t>(space.output.shape.size() - 1),
                           launch.outputDims[2]});
  sem::Program candidate;
  Graph kernel = makeKernelGraph(space.inputTypes);
  // The combining kernel's operands: the partial results, and the input it
  // reads beside them.
  auto getCombined = [&](Graph &kernel) {
    SmallVector<int32_t> operands =
        appendGraphDef(kernel, kernel.inputs, partTypes, 1);
    if (combiner->input >= 0)
      operands.push_back(kernel.inputs[combiner->input]);
    return operands;
  };
  kernel.outputs.assign(
      {appendGraphDef(kernel, getCombined(kernel), space.output, 2)[0]});
  candidate.graphs = {std::move(kernel), first, combiner->body};
  if (keep(std::move(candidate)) || !observesDominated())
    return done();
  if (combiner->inputOp) {
    // The same µGraph with the op the combining kernel applies to the input
    // at kernel level, between the two kernels.
    sem::Program hoisted;
    Graph hoistedKernel = makeKernelGraph(space.inputTypes);
    SmallVector<int32_t> operands = getCombined(hoistedKernel);
    int32_t input = operands.back();
    operands.back() = appendKernelOp(hoistedKernel, *combiner->inputOp, input,
                                     hoistedKernel.values[input]);
    hoistedKernel.outputs.assign(
        {appendGraphDef(hoistedKernel, operands, space.output, 2)[0]});
    hoisted.graphs = {std::move(hoistedKernel), first, combiner->inputOpBody};
    shared.options.observe(hoisted);
  }
  if (!combiner->hoist)
    return done();
  // The same µGraph with the combining kernel's final op at kernel level.
  sem::Program hoisted;
  Graph hoistedKernel = makeKernelGraph(space.inputTypes);
  SmallVector<int32_t> saved = appendGraphDef(
      hoistedKernel, getCombined(hoistedKernel), combiner->hoist->types, 2);
  hoistedKernel.outputs.assign({appendKernelOp(
      hoistedKernel, combiner->hoist->op, saved, space.output)});
  hoisted.graphs = {std::move(hoistedKernel), std::move(first),
                    combiner->hoistedBody};
  shared.options.observe(hoisted);
  return done();
}

bool Worker::visitLinearSplit(const Launch &launch, const Graph &body,
                              ArrayRef<const Tile *> parts) {
  if (!shared.options.linearSplits || parts.size() != 1)
    return done();
  const Tile &part = *parts.front();
  const ValueType &output = space.output;
  int64_t splits = launch.grid[launch.splitAxis];
  if (part.shape != getOutputTile(output.shape, launch) ||
      !matchesOutput(part, space.labels))
    return done();
  std::optional<ExprId> widened = widenSplitSums(
      context.pool, part.expr, getSplitChunk(space, launch), splits);
  if (!widened || !context.equivalent(*widened, context.target))
    return done();
  // The blocks' terms stacked along the last dimension no other grid axis
  // maps (blocks write their terms one above the other).
  int32_t stacked = static_cast<int32_t>(output.shape.size()) - 1;
  while (stacked >= 0 &&
         (launch.outputDims[0] == stacked || launch.outputDims[2] == stacked))
    --stacked;
  if (stacked < 0)
    return done();
  Shape shape(output.shape);
  shape[stacked] *= splits;
  ValueType termsType{shape, output.elementType};
  Graph first =
      saveTiles(body, {part.value}, {termsType},
                {launch.outputDims[0], stacked, launch.outputDims[2]});
  sem::Program candidate;
  Graph kernel = makeKernelGraph(space.inputTypes);
  SmallVector<int32_t> terms =
      appendGraphDef(kernel, kernel.inputs, termsType, 1);
  kernel.outputs.assign({appendGraphDef(kernel, terms, output, 2)[0]});
  candidate.graphs = {std::move(kernel), std::move(first),
                      makeTermsSum(termsType, output, stacked, shared.options)};
  keep(std::move(candidate));
  return done();
}

const std::optional<Combiner> &Worker::combine(ArrayRef<ValueType> partTypes,
                                               ArrayRef<ExprId> partExprs,
                                               const Launch &split) {
  CombineKey key;
  std::get<0>(key).assign(partExprs.begin(), partExprs.end());
  for (const ValueType &type : partTypes)
    std::get<1>(key).emplace_back(type.shape.begin(), type.shape.end());
  std::get<2>(key) = split.grid[1];
  std::get<3>(key) = split.splitLabel;
  auto [entry, inserted] = combined.try_emplace(std::move(key));
  std::optional<Combiner> &result = entry->second;
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
  // The sum over the split of each part's columns, and the whole row's sum
  // (a part that kept a row's columns unsummed: the first kernel
  // accumulated a tile rather than its row sum).
  llvm::SmallSetVector<int64_t, 4> sizes;
  for (const ValueType &type : partTypes)
    sizes.insert(type.shape.back() / split.grid[1]);
  sizes.insert(1);
  for (int64_t size : sizes)
    parts.vocabulary.push_back({OpKind::Reduction, AccumKind::Sum, size});
  for (const OpChoice &choice : space.vocabulary)
    if (sem::isUnary(choice.kind) || sem::isBinary(choice.kind))
      parts.vocabulary.push_back(choice);
  // The input read beside the parts (-1: none).
  int32_t input = -1;
  auto visitCombined = [&](const Launch &launch, const Graph &body,
                           ArrayRef<Tile> tiles) {
    const Tile &newest = tiles.back();
    if (newest.shape != getOutputTile(space.output.shape, launch) ||
        !matchesOutput(newest, parts.labels) ||
        !context.equivalent(newest.expr, context.target))
      return false;
    // With an input beside them, the kernel must still combine every part
    // (and read the input): it is not a kernel of its own.
    size_t numLoads = parts.inputTypes.size() + (input >= 0 ? 1 : 0);
    if (input >= 0 &&
        !llvm::all_of(tiles.take_front(numLoads), [&](const Tile &load) {
          return llvm::any_of(body.nodes, [&](const Node &node) {
            return llvm::is_contained(node.operands, load.value);
          });
        }))
      return false;
    std::array<int32_t, 3> map = {launch.outputDims[0], launch.outputDims[1],
                                  -1};
    result.emplace();
    result->body = saveTiles(body, newest.value, space.output, map);
    result->body.threads =
        getTileThreads(result->body, kCombineElementsPerThread);
    result->input = input;
    // The hoisted forms only an observer sees.
    if (observesDominated())
      result->hoist = getHoistableOp(launch, body, tiles, numLoads,
                                     newest.value, space.output, map);
    if (result->hoist) {
      result->hoistedBody =
          saveTiles(body, result->hoist->values, result->hoist->types, map);
      result->hoistedBody.threads =
          getTileThreads(result->hoistedBody, kCombineElementsPerThread);
    }
    if (input >= 0 && observesDominated())
      if (auto hoisted = hoistReader(result->body, tiles[numLoads - 1].value)) {
        result->inputOp = hoisted->first;
        result->inputOpBody = std::move(hoisted->second);
      }
    return true;
  };
  Launch launch = getCombineLaunch(space.output.shape, shared.options,
                                   kCombineBlocksPerSM *
                                       shared.options.chip->multiprocessors);
  BodyEnumerator(context, parts, visitCombined).run(launch);
  // Parts that do not give the output alone (attention's numerators without
  // their denominators) may with one input of the reference beside them:
  // one that holds the split dimension and reaches a reduction through
  // elementwise ops (what the parts lack is a sum over that dimension, which
  // the combining kernel takes of the whole row). Two ops more: one to load
  // it and one to use it.
  const Graph &reference = shared.reference.getKernelGraph();
  for (size_t i = 0; i < space.inputTypes.size() && !result; ++i) {
    if (!llvm::is_contained(space.labels.inputs[i], split.splitLabel) ||
        !feedsReduction(reference, reference.inputs[i]))
      continue;
    KernelSpace withInput = parts;
    withInput.inputTypes.push_back(space.inputTypes[i]);
    withInput.inputExprs.push_back(space.inputExprs[i]);
    withInput.labels.inputs.push_back(space.labels.inputs[i]);
    withInput.maxOps += 2;
    input = static_cast<int32_t>(i);
    BodyEnumerator(context, withInput, visitCombined).run(launch);
  }
  return result;
}
