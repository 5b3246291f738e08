//===- LoadStoreLowering.cpp - Loads and stores of kernel tensors ---------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// input_loader and output_saver: tiles read in place, preloaded into shared
// memory once, or staged ahead of their for-loop iteration (software
// pipelining with cp.async, or the TMA unit on mbarriers).
//
//===----------------------------------------------------------------------===//

#include "GraphDefLowering.h"
#include "Mirage/Conversion/TensorMaps.h"
#include <numeric>

using namespace mlir;
using namespace mlir::mirage;
using namespace mlir::mirage::lowering;

//===----------------------------------------------------------------------===//
// Loads and stores of kernel tensors
//===----------------------------------------------------------------------===//

Tile GraphDefLowering::getLoaderTile(block::InputLoaderOp op, Value iteration) {
  auto source = cast<BlockArgument>(op.getSource());
  Tile tile = globalTensor(source.getArgNumber(), getShape(op.getSource()));
  ArrayRef<int64_t> shape = getShape(op.getResult());
  tile.shape.assign(shape.begin(), shape.end());
  for (auto [term, factor] : getLoaderOffsetTerms(graph, op))
    if (term != kIterationTerm || iteration)
      emitter.addToOffset(
          tile, term == kIterationTerm ? iteration : emitter.blockId(term),
          factor);
  return tile;
}

Tile GraphDefLowering::getStage(block::InputLoaderOp op, Value iteration) {
  // The stages' layout without its outermost (stage) dimension.
  const Tile &stages = staged.lookup(op);
  Tile stage = stages;
  stage.shape.erase(stage.shape.begin());
  stage.strides.erase(stage.strides.begin());
  if (stage.blockExtent != 0)
    --stage.blockedDim;
  Value index =
      arith::RemUIOp::create(emitter.getBuilder(), emitter.getLoc(), iteration,
                             emitter.index(schedule.stages));
  emitter.addToOffset(stage, index, stages.strides.front());
  return stage;
}

/// The global tile preloaded `loader` copies: a loop-varying loader's
/// tiles of every iteration, from the first's.
static Tile getPreloadedTile(GraphDefLowering &lowering,
                             kernel::GraphDefOp graph,
                             block::InputLoaderOp loader) {
  Tile global = lowering.getLoaderTile(loader, Value());
  if (loader.isLoopVarying())
    global.shape = getWholeLoopShape(graph, loader);
  return global;
}

void GraphDefLowering::allocatePreloads() {
  for (Operation *op : schedule.preloaded) {
    auto loader = cast<block::InputLoaderOp>(op);
    Tile global = getPreloadedTile(*this, graph, loader);
    preloaded[op] = emitter.allocateShared(
        global.shape, global.storageType, kMaxVectorBytes,
        getSharedSwizzle(loader.getResult()));
  }
}

void GraphDefLowering::preloadTiles() {
  for (Operation *op : schedule.preloaded) {
    auto loader = cast<block::InputLoaderOp>(op);
    emitter.copyAsync(getPreloadedTile(*this, graph, loader),
                      preloaded.lookup(op));
  }
  if (!preloaded.empty())
    NVVM::CpAsyncCommitGroupOp::create(emitter.getBuilder(), emitter.getLoc());
}

bool GraphDefLowering::isFunctionInput(block::InputLoaderOp op) const {
  auto source = cast<BlockArgument>(op.getSource());
  return isa<BlockArgument>(graph->getOperand(source.getArgNumber()));
}

void GraphDefLowering::allocateStages() {
  for (auto &[op, plan] : schedule.staged) {
    auto loader = cast<block::InputLoaderOp>(op);
    SmallVector<int64_t, 4> shape = {schedule.stages};
    llvm::append_range(shape, getShape(loader.getResult()));
    Tile stages = emitter.allocateShared(
        shape, getElementType(loader.getResult()),
        schedule.tensorCopies ? kTensorCopyAlignment : kMaxVectorBytes,
        plan.swizzle);
    if (plan.blockExtent != 0)
      blockLastDimension(stages, plan.blockExtent, /*firstInner=*/1);
    staged[op] = stages;
  }
  if (schedule.tensorCopies)
    initTensorCopies();
}

void GraphDefLowering::initTensorCopies() {
  OpBuilder &b = emitter.getBuilder();
  Location loc = emitter.getLoc();
  SmallVector<Attribute> params;
  for (Operation *op : staged.keys()) {
    auto loader = cast<block::InputLoaderOp>(op);
    auto source = cast<BlockArgument>(loader.getSource());
    unsigned argument = kernel.getNumArguments();
    if (failed(kernel.insertArguments(
            {argument}, {kernel.getArgument(source.getArgNumber()).getType()},
            {DictionaryAttr()}, {loc})))
      llvm_unreachable("a gpu.func takes any argument");
    tensorMaps[op] = kernel.getArgument(argument);
    ArrayRef<int64_t> shape = getShape(loader.getResult());
    ArrayRef<int64_t> whole = getShape(loader.getSource());
    // A blocked stage is copied one block (box) at a time.
    const Tile &stages = staged.lookup(op);
    SmallVector<int64_t, 4> box(shape);
    if (stages.blockExtent != 0)
      box.back() = stages.blockExtent;
    params.push_back(TensorMapParam{argument, source.getArgNumber(),
                                    SmallVector<int64_t, 4>(whole), box,
                                    stages.swizzle}
                         .toAttr(b.getContext()));
    stageBytes += getElementType(loader.getResult()).getIntOrFloatBitWidth() /
                  8 *
                  std::accumulate(shape.begin(), shape.end(), int64_t(1),
                                  std::multiplies<>());
  }
  kernel->setAttr(kTensorMapsAttrName, b.getArrayAttr(params));
  // One mbarrier per stage, initialised by one thread for one arrival (the
  // thread that starts the stage's copies and announces their bytes).
  stageBarriers = emitter.allocateShared({schedule.stages}, b.getI64Type());
  Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                      emitter.getThreadId(), emitter.index(0));
  auto init = scf::IfOp::create(b, loc, first);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(init.thenBlock()->getTerminator());
    Value one = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(1));
    for (int64_t stage = 0; stage < schedule.stages; ++stage)
      NVVM::MBarrierInitOp::create(
          b, loc,
          emitter.getElementPointer(*stageBarriers, {emitter.index(stage)}),
          one, /*predicate=*/Value());
    NVVM::FenceMbarrierInitOp::create(b, loc);
  }
  emitter.barrier();
}

SmallVector<Value, 5>
GraphDefLowering::getBoxCoordinates(block::InputLoaderOp op, Value iteration) {
  OpBuilder &b = emitter.getBuilder();
  Location loc = emitter.getLoc();
  ArrayRef<int64_t> whole = getShape(op.getSource());
  ArrayRef<int64_t> shape = getShape(op.getResult());
  SmallVector<Value, 5> starts(whole.size());
  auto addTerm = [&](int64_t dim, Value term, int64_t factor) {
    starts[dim] = addScaled(starts[dim], term, factor);
  };
  for (unsigned axis = 0; axis < 3; ++axis) {
    int32_t dim = op.getImap().getDim(axis);
    if (dim >= 0 && graph.getGrid()[axis] != 1)
      addTerm(dim, emitter.blockId(axis), whole[dim] / graph.getGrid()[axis]);
  }
  if (op.isLoopVarying())
    addTerm(op.getFmap(), iteration, shape[op.getFmap()]);
  SmallVector<Value, 5> coordinates;
  for (Value start : llvm::reverse(starts))
    coordinates.push_back(arith::IndexCastOp::create(
        b, loc, b.getI32Type(), start ? start : emitter.index(0)));
  return coordinates;
}

Value GraphDefLowering::getStageBarrier(Value iteration) {
  Value stage =
      arith::RemUIOp::create(emitter.getBuilder(), emitter.getLoc(), iteration,
                             emitter.index(schedule.stages));
  return emitter.getElementPointer(*stageBarriers, {stage});
}

void GraphDefLowering::copyStagedTiles(Value iteration, Copies which) {
  if (!stageBarriers) {
    assert(which == Copies::All && "only TMA copies are split");
    for (Operation *op : staged.keys()) {
      auto loader = cast<block::InputLoaderOp>(op);
      emitter.copyAsync(getLoaderTile(loader, iteration),
                        getStage(loader, iteration));
    }
    return;
  }
  SmallVector<block::InputLoaderOp> loaders;
  for (Operation *op : staged.keys()) {
    auto loader = cast<block::InputLoaderOp>(op);
    if (which == Copies::All ||
        isFunctionInput(loader) == (which == Copies::FunctionInputs))
      loaders.push_back(loader);
  }
  bool arrives = which != Copies::Others;
  if (loaders.empty() && !arrives)
    return;
  // One thread announces the stage's bytes (the stage's one arrival) and
  // starts one copy per tile, which completes them.
  OpBuilder &b = emitter.getBuilder();
  Location loc = emitter.getLoc();
  Value barrier = getStageBarrier(iteration);
  auto first = scf::IfOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                            emitter.getThreadId(), emitter.index(0)));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(first.thenBlock()->getTerminator());
  if (arrives)
    NVVM::MBarrierArriveExpectTxOp::create(
        b, loc, /*res=*/Type(), barrier,
        arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(stageBytes)),
        NVVM::MemScopeKind::CTA, /*relaxed=*/false, /*predicate=*/Value());
  for (block::InputLoaderOp loader : loaders) {
    Value address = arith::IndexCastOp::create(
        b, loc, b.getI64Type(),
        memref::ExtractAlignedPointerAsIndexOp::create(
            b, loc, tensorMaps.lookup(loader)));
    Value descriptor = LLVM::IntToPtrOp::create(
        b, loc, LLVM::LLVMPointerType::get(b.getContext()), address);
    // One box per block of columns (the whole tile if unblocked).
    Tile stage = getStage(loader, iteration);
    SmallVector<Value, 5> coordinates = getBoxCoordinates(loader, iteration);
    int64_t extent = stage.blockExtent ? stage.blockExtent : stage.shape.back();
    SmallVector<Value, 4> at(stage.shape.size(), emitter.index(0));
    for (int64_t column = 0; column < stage.shape.back(); column += extent) {
      SmallVector<Value, 5> box(coordinates);
      if (column != 0) {
        at.back() = emitter.index(column);
        box.front() = arith::AddIOp::create(
            b, loc, coordinates.front(),
            arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(column)));
      }
      emitter.copyTensor(descriptor, box, stage, at, barrier);
    }
  }
}

void GraphDefLowering::advancePipeline(Value iteration) {
  OpBuilder &b = emitter.getBuilder();
  Location loc = emitter.getLoc();
  if (stageBarriers) {
    // The stage's k-th filling (k = iteration / stages) completes the
    // mbarrier's phase k; the wait loops until that phase's parity flips.
    Value parity = arith::AndIOp::create(
        b, loc,
        arith::DivUIOp::create(b, loc, iteration,
                               emitter.index(schedule.stages)),
        emitter.index(1));
    NVVM::MBarrierTryWaitParityOp::create(
        b, loc, getStageBarrier(iteration),
        arith::IndexCastOp::create(b, loc, b.getI32Type(), parity),
        arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(kWaitTicks)));
  } else {
    // Groups of iterations up to `iteration + schedule.stages - 2` are
    // committed: all but the newest schedule.stages - 2 are complete once this
    // returns.
    NVVM::CpAsyncWaitGroupOp::create(b, loc, schedule.stages - 2);
  }
  // The barrier makes every thread's copies visible, and ends every read of
  // the stage refilled below (that of the previous iteration).
  emitter.barrier();
  Value ahead = arith::AddIOp::create(b, loc, iteration,
                                      emitter.index(schedule.stages - 1));
  Value inRange =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, ahead,
                            emitter.index(graph.getForloop()));
  auto copies = scf::IfOp::create(b, loc, inRange);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(copies.thenBlock()->getTerminator());
    copyStagedTiles(ahead);
  }
  // One group per iteration, empty past the end, so that the count holds.
  if (!stageBarriers)
    NVVM::CpAsyncCommitGroupOp::create(b, loc);
}

void GraphDefLowering::lowerInputLoader(block::InputLoaderOp op) {
  if (auto found = preloaded.find(op); found != preloaded.end()) {
    Tile tile = found->second;
    if (op.isLoopVarying()) {
      // This iteration's part of every iteration's tiles.
      ArrayRef<int64_t> shape = getShape(op.getResult());
      int64_t dim = op.getFmap();
      tile.shape.assign(shape.begin(), shape.end());
      emitter.addToOffset(tile, iteration, shape[dim] * tile.strides[dim]);
    }
    tiles[op.getResult()] = tile;
  } else if (staged.contains(op))
    tiles[op.getResult()] = getStage(op, iteration);
  else
    tiles[op.getResult()] = getLoaderTile(op, iteration);
}

Tile GraphDefLowering::getSavedTile(block::OutputSaverOp op) {
  auto position =
      llvm::find(graph.getBodyBlock().getTerminator()->getOperands(),
                 op.getResult()) -
      graph.getBodyBlock().getTerminator()->operand_begin();
  ArrayRef<int64_t> shape = getShape(op.getInput());
  Tile out = globalTensor(graph.getInputs().size() + position,
                          getShape(op.getResult()));
  for (unsigned axis = 0; axis < 3; ++axis) {
    int32_t dim = op.getOmap().getDim(axis);
    if (dim < 0 || graph.getGrid()[axis] == 1)
      continue;
    emitter.addToOffset(out, emitter.blockId(axis),
                        shape[dim] * out.strides[dim]);
  }
  return out;
}

void GraphDefLowering::lowerOutputSaver(block::OutputSaverOp op) {
  ArrayRef<int64_t> shape = getShape(op.getInput());
  Tile out = getSavedTile(op);
  const Tile &in = tiles[op.getInput()];
  Type type = in.getStorageType();
  int64_t width = getRunWidth(shape, {type, out.getStorageType()});
  emitter.forEachRun(shape, width, [&](ValueRange c) {
    if (width == 1)
      emitter.store(out, c, emitter.load(in, c));
    else if (type == out.getStorageType()) // Copied without converting.
      emitter.storePacked(out, c, emitter.loadPacked(in, c, width));
    else
      emitter.storeVector(out, c, emitter.loadVector(in, c, width));
  });
}

void lowering::populateLoadStoreLowerings(BlockLowerings &lowerings) {
  lowerings.add<block::InputLoaderOp>([](GraphDefLowering &l, Operation *op) {
    l.lowerInputLoader(cast<block::InputLoaderOp>(op));
    return success();
  });
  lowerings.add<block::OutputSaverOp>([](GraphDefLowering &l, Operation *op) {
    l.lowerOutputSaver(cast<block::OutputSaverOp>(op));
    return success();
  });
}
