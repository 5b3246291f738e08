//===- SplitGraphDefs.cpp - mirage-kernel-split-graph-defs
//-----------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Cuts graph_defs whose bodies hold more than `max-ops` ops into a sequence
// of graph_defs (docs/Benchmarks/Scaling.md says why): LLVM's optimizer and
// the NVPTX backend take time superlinear in the length of a kernel's one
// straight-line block, so a kernel's size must be bounded for compile time
// to grow linearly with the program.
//
//===----------------------------------------------------------------------===//

#include "Mirage/Dialect/Kernel/Transforms/Passes.h"

#include "Mirage/Dialect/Block/IR/BlockOps.h"
#include "Mirage/Dialect/Block/IR/LoopPhase.h"
#include "Mirage/Dialect/Kernel/IR/KernelOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::mirage::kernel {
#define GEN_PASS_DEF_SPLITGRAPHDEFSPASS
#include "Mirage/Dialect/Kernel/Transforms/Passes.h.inc"
} // namespace mlir::mirage::kernel

using namespace mlir;
using namespace mlir::mirage;

namespace {

/// The map that saves `tile` with every grid axis of more than one block on
/// its own dimension (x on dimension 0, the next such axis on 1, ...), or
/// null when the tile has fewer dimensions than such axes.
block::GridMapAttr getSavingMap(block::STensorType tile,
                                ArrayRef<int32_t> grid) {
  SmallVector<int32_t, 3> dims{-1, -1, -1};
  int32_t next = 0;
  for (unsigned axis = 0; axis < 3; ++axis) {
    if (grid[axis] == 1)
      continue;
    if (next == static_cast<int32_t>(tile.getShape().size()))
      return nullptr;
    dims[axis] = next++;
  }
  return block::GridMapAttr::get(tile.getContext(), dims[0], dims[1], dims[2]);
}

/// The kernel tensor that the tiles of all blocks saved by `map` make up.
RankedTensorType getSavedType(block::STensorType tile, block::GridMapAttr map,
                              ArrayRef<int32_t> grid) {
  SmallVector<int64_t, 4> shape(tile.getShape());
  for (unsigned axis = 0; axis < 3; ++axis)
    if (map.getDim(axis) >= 0)
      shape[map.getDim(axis)] *= grid[axis];
  return RankedTensorType::get(shape, tile.getElementType());
}

/// The number of operations `op` stands for: itself and those of its
/// regions (a thread graph counts its scalar ops).
int64_t getWeight(Operation *op) {
  int64_t weight = 0;
  op->walk([&](Operation *) { ++weight; });
  return weight;
}

/// The segment (the new graph_def) of every compute op and output saver of
/// a body; input loaders are copied into each segment that reads them.
struct Segmentation {
  llvm::DenseMap<Operation *, unsigned> segmentOf;
  unsigned numSegments = 1;
};

/// Whether a value of `phase` may be saved at a cut and loaded again.
bool mayCross(Value value, block::LoopPhase phase, int64_t forloop,
              ArrayRef<int32_t> grid) {
  if (phase == block::LoopPhase::InLoop && forloop > 1)
    return false;
  return static_cast<bool>(
      getSavingMap(cast<block::STensorType>(value.getType()), grid));
}

/// Cuts the body after every `maxOps` weight of compute ops, at the first
/// point after that where every value live across the cut may cross it.
Segmentation segment(kernel::GraphDefOp graph, int64_t maxOps,
                     const block::LoopPhaseMap &phases) {
  Block &body = graph.getBodyBlock();
  ArrayRef<int32_t> grid = graph.getGrid();
  int64_t forloop = graph.getForloop();
  SmallVector<Operation *> computeOps;
  for (Operation &op : body.without_terminator())
    if (!isa<block::InputLoaderOp, block::OutputSaverOp>(op))
      computeOps.push_back(&op);
  llvm::DenseMap<Operation *, unsigned> position;
  for (auto [index, op] : llvm::enumerate(computeOps))
    position[op] = index;

  // The values that may not cross a cut, counted from their definition to
  // their last reader (savers do not count: a saver goes with the op whose
  // result it saves).
  SmallVector<int64_t> blockingStarts(computeOps.size(), 0);
  SmallVector<int64_t> blockingEnds(computeOps.size(), 0);
  for (auto [index, op] : llvm::enumerate(computeOps)) {
    for (Value result : op->getResults()) {
      unsigned lastUse = index;
      for (Operation *user : result.getUsers())
        if (!isa<block::OutputSaverOp>(user))
          lastUse = std::max(lastUse, position.lookup(user));
      if (lastUse > index &&
          !mayCross(result, phases.lookup(op), forloop, grid)) {
        ++blockingStarts[index];
        ++blockingEnds[lastUse];
      }
    }
  }

  Segmentation segmentation;
  unsigned current = 0;
  int64_t weight = 0;
  int64_t blocking = 0;
  for (auto [index, op] : llvm::enumerate(computeOps)) {
    segmentation.segmentOf[op] = current;
    weight += getWeight(op);
    blocking += blockingStarts[index] - blockingEnds[index];
    if (weight >= maxOps && blocking == 0 && index + 1 < computeOps.size()) {
      ++current;
      weight = 0;
    }
  }
  segmentation.numSegments = current + 1;
  for (auto saver : body.getOps<block::OutputSaverOp>()) {
    Operation *producer = saver.getInput().getDefiningOp();
    segmentation.segmentOf[saver] = segmentation.segmentOf.lookup(producer);
  }
  return segmentation;
}

/// A kernel tensor holding the tiles of one body value, and the map that
/// loads each block's tile back.
struct SavedTile {
  Value tensor;
  block::GridMapAttr map;
};

/// Replaces a graph_def by one graph_def per segment, in order. A value
/// computed in one segment and read in a later one is saved by the first
/// (through an original saver of it where there is one) and loaded by the
/// later ones.
class Splitter {
public:
  Splitter(kernel::GraphDefOp graph, const Segmentation &segmentation)
      : graph(graph), segmentation(segmentation), builder(graph) {}

  void run() {
    Block &body = graph.getBodyBlock();
    for (unsigned segment = 0; segment < segmentation.numSegments; ++segment)
      buildSegment(segment);
    for (auto [result, yielded] :
         llvm::zip(graph.getResults(), body.getTerminator()->getOperands()))
      result.replaceAllUsesWith(newResults.lookup(yielded));
    graph.erase();
  }

private:
  unsigned segmentOf(Operation *op) const {
    return segmentation.segmentOf.lookup(op);
  }

  /// The ops of `segment` (loaders aside), in body order.
  SmallVector<Operation *> getOps(unsigned segment) {
    SmallVector<Operation *> ops;
    for (Operation &op : graph.getBodyBlock().without_terminator())
      if (!isa<block::InputLoaderOp>(op) && segmentOf(&op) == segment)
        ops.push_back(&op);
    return ops;
  }

  /// The kernel tensor each value that `ops` read from outside `segment`
  /// comes from: the original input a loader reads, or the tensor an earlier
  /// segment saved it to.
  llvm::MapVector<Value, Value> getSources(ArrayRef<Operation *> ops,
                                           unsigned segment) {
    llvm::MapVector<Value, Value> sources;
    for (Operation *op : ops) {
      for (Value operand : op->getOperands()) {
        if (auto loader = operand.getDefiningOp<block::InputLoaderOp>())
          sources[operand] =
              graph.getInputs()[cast<BlockArgument>(loader.getSource())
                                    .getArgNumber()];
        else if (segmentOf(operand.getDefiningOp()) != segment)
          sources[operand] = saved.lookup(operand).tensor;
      }
    }
    return sources;
  }

  /// The results of `ops` that a later segment reads.
  SmallVector<Value> getCrossing(ArrayRef<Operation *> ops,
                                 unsigned segment) const {
    SmallVector<Value> crossing;
    for (Operation *op : ops)
      for (Value result : op->getResults())
        if (llvm::any_of(result.getUsers(), [&](Operation *user) {
              return segmentOf(user) > segment;
            }))
          crossing.push_back(result);
    return crossing;
  }

  /// Whether a segment of `ops` reading `sources` needs the for-loop: it
  /// loads a per-iteration tile or accumulates.
  static bool hasLoop(ArrayRef<Operation *> ops,
                      const llvm::MapVector<Value, Value> &sources) {
    for (auto [value, source] : sources)
      if (auto loader = value.getDefiningOp<block::InputLoaderOp>())
        if (loader.isLoopVarying())
          return true;
    return llvm::any_of(
        ops, [](Operation *op) { return isa<block::ForloopAccumOp>(op); });
  }

  void buildSegment(unsigned segment) {
    SmallVector<Operation *> ops = getOps(segment);
    llvm::MapVector<Value, Value> sources = getSources(ops, segment);
    SmallVector<Value> crossing = getCrossing(ops, segment);
    llvm::MapVector<Value, unsigned> inputIndex;
    for (auto [value, source] : sources)
      inputIndex.insert({source, inputIndex.size()});

    // Results: the original savers, then a new saver for each crossing value
    // that no original saver saves.
    SmallVector<Value> savers;
    llvm::DenseMap<Value, block::OutputSaverOp> saverOf;
    for (Operation *op : ops)
      if (auto saver = dyn_cast<block::OutputSaverOp>(op)) {
        savers.push_back(saver.getResult());
        saverOf.try_emplace(saver.getInput(), saver);
      }
    SmallVector<Value> unsaved;
    for (Value value : crossing)
      if (!saverOf.count(value))
        unsaved.push_back(value);
    ArrayRef<int32_t> grid = graph.getGrid();
    SmallVector<Type> resultTypes(ValueRange(savers).getTypes());
    for (Value value : unsaved) {
      auto tile = cast<block::STensorType>(value.getType());
      resultTypes.push_back(getSavedType(tile, getSavingMap(tile, grid), grid));
    }

    SmallVector<Value> inputs(llvm::make_first_range(inputIndex));
    auto part = kernel::GraphDefOp::create(
        builder, graph.getLoc(), resultTypes, inputs, graph.getGridAttr(),
        graph.getBlockAttr(),
        builder.getI64IntegerAttr(hasLoop(ops, sources) ? graph.getForloop()
                                                        : 1),
        graph.getClusterAttr(), graph.getNonPortableClusterAttr(),
        graph.getAsyncCopiesAttr());
    Block *body = new Block();
    part.getBody().push_back(body);
    for (Value input : inputs)
      body->addArgument(input.getType(), graph.getLoc());
    OpBuilder inner = OpBuilder::atBlockBegin(body);

    IRMapping mapping;
    for (auto [value, source] : sources) {
      BlockArgument arg = body->getArgument(inputIndex.lookup(source));
      if (auto loader = value.getDefiningOp<block::InputLoaderOp>()) {
        IRMapping sourceMapping;
        sourceMapping.map(loader.getSource(), arg);
        mapping.map(value, inner.clone(*loader, sourceMapping)->getResult(0));
        continue;
      }
      mapping.map(value, block::InputLoaderOp::create(inner, graph.getLoc(),
                                                      value.getType(), arg,
                                                      saved.lookup(value).map));
    }
    for (Operation *op : ops)
      inner.clone(*op, mapping);
    SmallVector<Value> yielded;
    for (Value result : savers)
      yielded.push_back(mapping.lookup(result));
    for (Value value : unsaved) {
      auto tile = cast<block::STensorType>(value.getType());
      block::GridMapAttr map = getSavingMap(tile, grid);
      yielded.push_back(block::OutputSaverOp::create(
          inner, graph.getLoc(), getSavedType(tile, map, grid),
          mapping.lookup(value), map));
    }
    block::YieldOp::create(inner, graph.getLoc(), yielded);

    for (auto [index, result] : llvm::enumerate(savers))
      newResults[result] = part.getResult(index);
    for (Value value : crossing)
      if (block::OutputSaverOp saver = saverOf.lookup(value))
        saved[value] = {newResults.lookup(saver.getResult()), saver.getOmap()};
    for (auto [index, value] : llvm::enumerate(unsaved))
      saved[value] = {
          part.getResult(savers.size() + index),
          getSavingMap(cast<block::STensorType>(value.getType()), grid)};
  }

  kernel::GraphDefOp graph;
  const Segmentation &segmentation;
  OpBuilder builder;
  /// Where each crossing value was saved.
  llvm::DenseMap<Value, SavedTile> saved;
  /// Each original saver's result in the new graph_defs.
  llvm::DenseMap<Value, Value> newResults;
};

struct SplitGraphDefsPass
    : kernel::impl::SplitGraphDefsPassBase<SplitGraphDefsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (maxOps < 0) {
      getOperation().emitError("max-ops must not be negative, got ")
          << static_cast<int64_t>(maxOps);
      return signalPassFailure();
    }
    if (maxOps == 0)
      return;
    SmallVector<kernel::GraphDefOp> graphs(
        getOperation().getBody().getOps<kernel::GraphDefOp>());
    for (kernel::GraphDefOp graph : graphs) {
      if (graph.getCluster())
        continue;
      FailureOr<block::LoopPhaseMap> phases =
          block::analyzeLoopPhases(graph.getBodyBlock(), graph.getForloop());
      if (failed(phases))
        return signalPassFailure();
      Segmentation segmentation = segment(graph, maxOps, *phases);
      if (segmentation.numSegments > 1)
        Splitter(graph, segmentation).run();
    }
  }
};

} // namespace
