//===- GraphDefLowering.cpp - Lowering of one graph_def -------------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Compiles each graph_def into a gpu.func. The body runs in three phases
// (docs/LanguageReference.md, "Loop phases"; LoopPhase.h): loop-invariant ops,
// then an scf.for over the for-loop holding the per-iteration ops and the
// accumulation steps, then the ops on accumulated values. Every op is a loop
// of the block's threads over the elements of its result followed by a
// barrier (docs/CodeGeneration.md).
//
//===----------------------------------------------------------------------===//

#include "GraphDefLowering.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::mirage;
using namespace mlir::mirage::lowering;

Value GraphDefLowering::addScaled(Value offset, Value term, int64_t factor) {
  OpBuilder &b = emitter.getBuilder();
  Location loc = emitter.getLoc();
  if (factor != 1)
    term = arith::MulIOp::create(b, loc, term, emitter.index(factor));
  return offset ? arith::AddIOp::create(b, loc, offset, term) : term;
}

LogicalResult GraphDefLowering::run() {
  Block &body = graph.getBodyBlock();
  FailureOr<block::LoopPhaseMap> analysis =
      block::analyzeLoopPhases(body, graph.getForloop());
  if (failed(analysis))
    return failure();
  phases = std::move(*analysis);
  auto phaseOf = [&](Operation &op) { return phases.lookup(&op); };
  OpBuilder &b = emitter.getBuilder();
  Location loc = emitter.getLoc();

  // The copies go first: the preloaded loop-invariant tiles, then the
  // stages of the first iterations; the ops wait for the former only.
  bool preloading = preloadInvariantTiles();
  planStaging();
  for (int64_t stage = 0; stage + 1 < numStages; ++stage) {
    copyStagedTiles(emitter.index(stage));
    if (!stageBarriers)
      NVVM::CpAsyncCommitGroupOp::create(b, loc);
  }
  if (preloading) {
    // The preloads are the oldest cp.async group.
    int64_t prologueGroups = stageBarriers || numStages == 0 ? 0 : numStages - 1;
    NVVM::CpAsyncWaitGroupOp::create(b, loc, prologueGroups);
    emitter.barrier();
  }

  // Loop-invariant ops, once.
  for (Operation &op : body.without_terminator()) {
    if (isa<block::ForloopAccumOp>(op) || phaseOf(op) != LoopPhase::Invariant)
      continue;
    if (failed(lower(&op)))
      return failure();
    releaseDeadTiles(&op);
  }

  // The for-loop: per-iteration ops and accumulation steps.
  auto accums = llvm::to_vector(body.getOps<block::ForloopAccumOp>());
  planRegisterSums();
  for (block::ForloopAccumOp accum : accums)
    if (!isInRegisters(accum))
      initAccumulator(accum);
  bool hasLoopBody = !accums.empty() ||
                     llvm::any_of(body.without_terminator(), [&](Operation &op) {
                       return phaseOf(op) == LoopPhase::InLoop;
                     });
  if (hasLoopBody) {
    auto loop = scf::ForOp::create(b, loc, emitter.index(0),
                                   emitter.index(graph.getForloop()),
                                   emitter.index(1), registers);
    Block *loopBody = loop.getBody();
    if (loopBody->mightHaveTerminator())
      loopBody->getTerminator()->erase();
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToEnd(loopBody);
    iteration = loop.getInductionVar();
    registers.assign(loop.getRegionIterArgs().begin(),
                     loop.getRegionIterArgs().end());
    if (numStages != 0)
      advancePipeline(iteration);
    for (Operation &op : body.without_terminator()) {
      if (auto accum = dyn_cast<block::ForloopAccumOp>(op)) {
        if (!isInRegisters(accum))
          accumulate(accum);
      } else if (phaseOf(op) != LoopPhase::InLoop) {
        continue;
      } else if (failed(lower(&op))) {
        return failure();
      }
      releaseDeadTiles(&op);
    }
    scf::YieldOp::create(b, loc, registers);
    registers.assign(loop.getResults().begin(), loop.getResults().end());
    b.setInsertionPointAfter(loop);
    releaseDeadTiles(loop, /*loopEnd=*/true);
  }
  iteration = Value();

  // After the loop: results of the accumulators, then the ops that use them.
  for (block::ForloopAccumOp accum : accums)
    finishAccumulator(accum);
  for (Operation &op : body.without_terminator()) {
    if (isa<block::ForloopAccumOp>(op) || phaseOf(op) != LoopPhase::PostLoop)
      continue;
    if (failed(lower(&op)))
      return failure();
    releaseDeadTiles(&op);
  }
  gpu::ReturnOp::create(b, loc);
  return success();
}

LoopPhase GraphDefLowering::getRunPhase(Operation *op) {
  return isa<block::ForloopAccumOp>(op) ? LoopPhase::InLoop
                                        : phases.lookup(op);
}

void GraphDefLowering::releaseDeadTiles(Operation *op, bool loopEnd) {
  // Other blocks of a cluster read this block's tiles (DSMEM) until the
  // cluster synchronises: no reuse there.
  if (graph.getCluster())
    return;
  auto runsBefore = [&](Operation *a, Operation *b) {
    LoopPhase phaseA = getRunPhase(a), phaseB = getRunPhase(b);
    return phaseA != phaseB ? phaseA < phaseB : a->isBeforeInBlock(b);
  };
  SmallVector<Value> candidates =
      loopEnd ? llvm::to_vector(ownedTiles)
              : llvm::to_vector(op->getOperands());
  // A register chain's second matmul reads the operands of its first.
  if (auto chain = registerChains.find(op);
      !loopEnd && chain != registerChains.end())
    llvm::append_range(candidates, chain->second.first->getOperands());
  for (Value value : candidates) {
    if (!ownedTiles.contains(value))
      continue;
    Operation *last = nullptr;
    for (Operation *user : value.getUsers())
      if (Operation *reader = getReader(user);
          !last || runsBefore(last, reader))
        last = reader;
    if (!last)
      continue;
    // A loop-invariant tile read in the loop lives until the loop ends.
    bool readInLoop =
        phases.lookup(value.getDefiningOp()) != LoopPhase::InLoop &&
        getRunPhase(last) == LoopPhase::InLoop;
    if (loopEnd ? !readInLoop : (last != op || readInLoop))
      continue;
    emitter.releaseShared(tiles[value]);
    ownedTiles.remove(value);
  }
}

LogicalResult GraphDefLowering::lower(Operation *op) {
  if (absorbed.contains(op))
    return success();
  return lowerings.lower(*this, op);
}

LogicalResult BlockLowerings::lower(GraphDefLowering &lowering,
                                    Operation *op) const {
  if (auto found = byOp.find(op->getName().getTypeID()); found != byOp.end())
    return found->second(lowering, op);
  if (elementwise && getElementwiseKind(op))
    return elementwise(lowering, op);
  return op->emitOpError("has no GPU lowering");
}

void lowering::populateMirageBlockToGPULowerings(BlockLowerings &lowerings) {
  populateLoadStoreLowerings(lowerings);
  populateElementwiseLowerings(lowerings);
  populateReductionLowerings(lowerings);
  populateMatmulLowerings(lowerings);
  populateClusterLowerings(lowerings);
}
