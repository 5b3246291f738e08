//===- Enumerator.cpp - Block bodies of one launch ------------------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Enumerator.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"

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
  case OpKind::ClusterReduce:
    return a;
  case OpKind::ClusterReduceScatter: {
    if (choice.dim < 0 || choice.dim >= int64_t(a.size()) ||
        a[choice.dim] % choice.size != 0)
      return std::nullopt;
    Shape result(a);
    result[choice.dim] /= choice.size;
    return result;
  }
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
    if (choice.accum == AccumKind::SumLastTo) {
      if (result.back() <= choice.size || result.back() % choice.size != 0)
        return std::nullopt;
      result.back() = choice.size;
    } else if (choice.accum != AccumKind::Sum) {
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
/// On a cluster launch a norm's row may be summed too (its blocks' sums
/// then summed across the cluster).
std::optional<Labels> inferLabels(const OpChoice &choice,
                                  ArrayRef<const Tile *> operands,
                                  const DimensionLabels &reference,
                                  bool cluster) {
  const Tile &a = *operands[0];
  if (sem::isUnary(choice.kind) || choice.kind == OpKind::RmsNorm ||
      sem::isClusterSum(choice.kind))
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
  bool reducesLast =
      choice.kind == OpKind::Reduction || choice.accum != AccumKind::Sum;
  if (!reducesLast)
    return a.labels;
  // A dimension the output keeps is summed whole only where the reference
  // sums it and broadcasts the sum back (a softmax's denominator).
  bool summedWhole = choice.kind == OpKind::Reduction && choice.size == 1 &&
                     (reference.isSummed(a.labels.back()) ||
                      (cluster && reference.isNormalised(a.labels.back())));
  if (!reference.isReduced(a.labels.back()) && !summedWhole)
    return std::nullopt;
  Labels result(a.labels);
  // A strided reduction to a larger size gives back the output's last
  // dimension (the combining kernel of a split µGraph).
  result.back() = choice.size == 1 ? kReducedLabel : reference.output.back();
  return result;
}

} // namespace

bool search::detail::matchesOutput(const Tile &tile,
                                   const DimensionLabels &reference) {
  for (auto [extent, label, outputLabel] :
       llvm::zip(tile.shape, tile.labels, reference.output))
    if (extent > 1 && label != outputLabel)
      return false;
  return true;
}

Shape search::detail::getOutputTile(ArrayRef<int64_t> shape,
                                    const Launch &launch) {
  Shape tile(shape);
  for (unsigned axis = 0; axis < 3; ++axis)
    if (launch.outputDims[axis] >= 0)
      tile[launch.outputDims[axis]] /= launch.grid[axis];
  return tile;
}

int64_t search::detail::getSplitChunk(const KernelSpace &space,
                                      const Launch &launch) {
  if (!launch.isSplit())
    return 0;
  for (auto [type, labels] : llvm::zip(space.inputTypes, space.labels.inputs))
    for (auto [extent, label] : llvm::zip(type.shape, labels))
      if (label == launch.splitLabel)
        return extent / launch.grid[launch.splitAxis];
  return 0;
}

void BodyEnumerator::startLoads(const Launch &newLaunch) {
  launch = newLaunch;
  splitChunk = getSplitChunk(space, launch);
  body = Graph();
  body.grid = launch.grid;
  body.forloop = launch.forloop;
  choices = space.vocabulary;
  if (launch.isCluster()) {
    int64_t size = launch.grid[launch.clusterAxis];
    body.cluster[launch.clusterAxis] = size;
    for (OpChoice choice : space.clusterVocabulary) {
      if (choice.kind == OpKind::ClusterReduceScatter) {
        // Only where the cluster splits a reduced dimension: each block then
        // keeps and saves its chunk of the output's mapped dimension.
        if (launch.splitAxis != launch.clusterAxis)
          continue;
        choice.size = size;
        choice.dim = launch.outputDims[launch.clusterAxis];
      }
      choices.push_back(choice);
    }
  }
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
    searchOps(0, 0, 0, {0, {}});
    return;
  }
  // A grid axis splits an input along a dimension labelled as the output
  // dimension it splits (or the split label), or replicates it; the
  // for-loop splits one other, reduced, dimension of the tile, or none.
  ArrayRef<int64_t> shape = space.inputTypes[index].shape;
  ArrayRef<int32_t> labels = space.labels.inputs[index];
  SmallVector<SmallVector<int32_t, 4>, 3> axisDims(3);
  for (unsigned axis = 0; axis < 3; ++axis) {
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
  // `imaps` overrides pin the x and y maps; z then splits nothing.
  for (int32_t mx : axisDims[0])
    for (int32_t my : axisDims[1])
      for (int32_t mz : axisDims[2]) {
        std::array<int32_t, 3> map = {mx, my, mz};
        if ((mx >= 0 && (mx == my || mx == mz)) || (my >= 0 && my == mz) ||
            (2 * index < space.imaps.size() &&
             (space.imaps[2 * index] != mx ||
              space.imaps[2 * index + 1] != my || mz >= 0)))
          continue;
        Shape tile(shape);
        for (unsigned axis = 0; axis < 3; ++axis)
          if (map[axis] >= 0)
            tile[map[axis]] /= launch.grid[axis];
        // The for-loop splits a reduced dimension no output axis splits: a
        // dimension of its own, or the split axis's, whose chunk it walks
        // (split-KV attention looping over each block's keys).
        SmallVector<int32_t, 4> fmaps = {-1};
        if (launch.forloop > 1)
          for (auto [d, extent] : llvm::enumerate(tile)) {
            auto axis = llvm::find(map, static_cast<int32_t>(d));
            bool free =
                axis == map.end() || axis - map.begin() == launch.splitAxis;
            if (extent % launch.forloop == 0 && extent > launch.forloop - 1 &&
                space.labels.isReduced(labels[d]) && free)
              fmaps.push_back(d);
          }
        for (int32_t fmap : fmaps) {
          if (index < space.fmaps.size() && space.fmaps[index] != fmap)
            continue;
          Shape loaded(tile);
          if (fmap >= 0)
            loaded[fmap] /= launch.forloop;
          Node node = makeNode(OpKind::InputLoader);
          node.operands = {body.inputs[index]};
          node.results = {static_cast<int32_t>(body.values.size())};
          node.map = {mx, my, mz};
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
    unsigned ops, unsigned accumulators, unsigned rmsLast,
    const std::pair<unsigned, SmallVector<int32_t, 2>> &last) {
  if (stopping())
    return;
  ++context.statistics.states;
  if (ops > 0 && visit(launch, body, tiles)) {
    stopped = true;
    return;
  }
  // Whether one more accumulator, an rms_last one or not, fits the budget.
  auto mayAccumulate = [&](bool foldsNorm) {
    return launch.forloop > 1 &&
           fitsAccumulatorBudget(accumulators + 1, rmsLast + foldsNorm,
                                 space.maxAccumulators);
  };
  if (ops == space.maxOps && !mayAccumulate(/*foldsNorm=*/true))
    return;

  size_t numTiles = tiles.size();
  for (auto [choiceIndex, choice] : llvm::enumerate(choices)) {
    if (stopping())
      return;
    unsigned arity =
        sem::isBinary(choice.kind) || choice.kind == OpKind::Matmul ? 2 : 1;
    if (choice.kind == OpKind::ForloopAccum
            ? !mayAccumulate(choice.accum == AccumKind::RmsLast)
            : ops == space.maxOps)
      continue;
    // Strided sums of a row feed a combining kernel only.
    if (choice.accum == AccumKind::SumLastTo && !launch.isSplit())
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
      if (ops + accumulators == 0 || usesNewest || key >= last)
        tryOp(choiceIndex, operands, ops, accumulators, rmsLast);
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
                           unsigned ops, unsigned accumulators,
                           unsigned rmsLast) {
  const OpChoice &choice = choices[choiceIndex];
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
  // The blocks of a cluster exchange what they hold after the for-loop, or
  // in a body without one.
  if (sem::isClusterSum(choice.kind) && phase != LoopPhase::PostLoop &&
      launch.forloop > 1)
    return;
  if (accumulates) {
    mixed |= phase != LoopPhase::InLoop;
    phase = LoopPhase::PostLoop;
    // A summed whole-row reduction is `sum_last` of its operand: the same
    // value in one form only, the one the code generator keeps in registers
    // (the other writes the row tile to shared memory every iteration).
    if (choice.accum == AccumKind::Sum && sumsWholeRows(inputs[0]->value))
      return;
  }
  // Likewise the whole-row reduction of a tile the for-loop sums.
  if (choice.kind == OpKind::Reduction && choice.size == 1 &&
      isSummedAccumulator(inputs[0]->value))
    return;
  std::optional<Shape> shape =
      mixed ? std::nullopt : inferShape(choice, inputs);
  if (!shape)
    return;
  std::optional<Labels> labels =
      inferLabels(choice, inputs, space.labels, launch.isCluster());
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
  if (choice.kind == OpKind::RmsNorm)
    node.size = choice.size;
  node.scalar = choice.scalar;
  if (choice.accum == AccumKind::SumLastTo)
    node.size = choice.size;
  if (choice.kind == OpKind::ClusterReduceScatter)
    node.dim = choice.dim;
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
  if (!isKept(expr)) {
    ++context.statistics.pruned;
    body.values.pop_back();
    return;
  }
  body.nodes.push_back(node);
  tiles.push_back({*shape, *labels, expr, phase, node.results[0]});
  searchOps(ops + !accumulates, accumulators + accumulates,
            rmsLast + (accumulates && choice.accum == AccumKind::RmsLast),
            {choiceIndex, SmallVector<int32_t, 2>(operands)});
  tiles.pop_back();
  body.nodes.pop_back();
  body.values.pop_back();
}

bool BodyEnumerator::isKept(ExprId expr) {
  auto isSubexpression = [&](ExprId candidate) {
    Verdict verdict = context.oracle.isSubexpression(candidate, context.target);
    return verdict == Verdict::Yes ||
           (verdict == Verdict::Unknown && !context.options.pruneUnknown);
  };
  if (isSubexpression(expr))
    return true;
  // In a split launch, a term of a linear split: what the blocks' sum
  // widens it to must be (docs/Search.md, "Linear splits").
  if (splitChunk == 0 || !context.options.linearSplits)
    return false;
  std::optional<ExprId> widened = widenSplitSums(context.pool, expr, splitChunk,
                                                 launch.grid[launch.splitAxis]);
  return widened && isSubexpression(*widened);
}

bool BodyEnumerator::sumsWholeRows(int32_t value) const {
  return llvm::any_of(body.nodes, [&](const Node &node) {
    return node.kind == OpKind::Reduction && node.size == 1 &&
           node.results[0] == value;
  });
}

bool BodyEnumerator::isSummedAccumulator(int32_t value) const {
  return llvm::any_of(body.nodes, [&](const Node &node) {
    return node.kind == OpKind::ForloopAccum && node.accum == AccumKind::Sum &&
           node.results[0] == value;
  });
}

std::vector<OpChoice> search::detail::chooseVocabulary(const Graph &kernel) {
  llvm::SmallSetVector<OpKind, 8> kinds;
  bool reduces = false, normalises = false;
  SmallVector<OpChoice> norms, scalings;
  for (const Node &node : kernel.nodes) {
    if (node.kind == sem::toOpKind(ElementwiseKind::MulScalar)) {
      // mul_scalar by each of the reference's factors.
      if (llvm::none_of(scalings, [&](const OpChoice &other) {
            return other.scalar == node.scalar;
          }))
        scalings.push_back(
            {node.kind, AccumKind::Sum, /*size=*/1, node.scalar});
    } else if (node.kind == OpKind::RmsNorm) {
      normalises = true;
      // A block-level rms_norm of the same groups, when a tile holds them.
      OpChoice norm{OpKind::RmsNorm, AccumKind::Sum, node.size, node.scalar};
      if (llvm::none_of(norms, [&](const OpChoice &other) {
            return other.size == norm.size && other.scalar == norm.scalar;
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
  llvm::append_range(vocabulary, scalings);
  llvm::append_range(vocabulary, norms);
  if (reduces)
    vocabulary.push_back({OpKind::Reduction});
  vocabulary.push_back({OpKind::ForloopAccum, AccumKind::Sum});
  if (reduces) {
    vocabulary.push_back({OpKind::ForloopAccum, AccumKind::SumLast});
    // The first kernel of a split µGraph may sum a row's columns, strided,
    // to the output's width, which its combining kernel then sums whole.
    int64_t width = kernel.values[kernel.outputs.front()].shape.back();
    if (width > 1)
      vocabulary.push_back({OpKind::ForloopAccum, AccumKind::SumLastTo, width});
  }
  // rms_last with each of the reference's norms' epsilons.
  SmallVector<double> epsilons;
  for (const OpChoice &norm : norms)
    if (!llvm::is_contained(epsilons, norm.scalar)) {
      epsilons.push_back(norm.scalar);
      vocabulary.push_back(
          {OpKind::ForloopAccum, AccumKind::RmsLast, /*size=*/1, norm.scalar});
    }
  return vocabulary;
}

std::vector<OpChoice>
search::detail::chooseClusterVocabulary(const Graph &kernel) {
  std::vector<OpChoice> base = chooseVocabulary(kernel);
  std::vector<OpChoice> vocabulary = {{OpKind::ClusterReduce},
                                      {OpKind::ClusterReduceScatter}};
  auto add = [&](OpChoice choice) {
    auto same = [&](const OpChoice &other) {
      return other.kind == choice.kind && other.accum == choice.accum &&
             other.size == choice.size && other.scalar == choice.scalar;
    };
    if (llvm::none_of(base, same) && llvm::none_of(vocabulary, same))
      vocabulary.push_back(choice);
  };
  // A norm's parts: x / sqrt(sum(x * x) / n). The IR has no scalar add, so
  // a norm with an epsilon has none.
  for (const Node &node : kernel.nodes) {
    if (node.kind != OpKind::RmsNorm || node.scalar != 0.0)
      continue;
    add({sem::toOpKind(ElementwiseKind::Square)});
    add({OpKind::Reduction});
    add({sem::toOpKind(ElementwiseKind::MulScalar), AccumKind::Sum,
         /*size=*/1, 1.0 / double(node.size)});
    add({sem::toOpKind(ElementwiseKind::Sqrt)});
  }
  return vocabulary;
}

SmallVector<int64_t> search::detail::getClusterSizes(const Chip &chip) {
  SmallVector<int64_t> sizes;
  for (int64_t size = 2; size <= chip.maxClusterBlocks; size *= 2)
    sizes.push_back(size);
  return sizes;
}
