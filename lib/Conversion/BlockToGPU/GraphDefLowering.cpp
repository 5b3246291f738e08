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
  auto phaseOf = [&](Operation &op) { return schedule.phases.lookup(&op); };
  OpBuilder &b = emitter.getBuilder();
  Location loc = emitter.getLoc();
  int64_t stages = schedule.stages;
  launchDependents();
  if (schedule.rowProgram) {
    waitForGridDependencies();
    lowerRowProgram(*schedule.rowProgram);
    return finishKernel();
  }

  // The copies go first: the preloaded tiles, then the stages of the first
  // iterations; the ops wait for the former only. With TMA copies and grid
  // dependencies, the stages' tiles of the function's inputs (a GEMV's
  // weights) are copied before the wait for the kernel before, so that
  // they stream while it ends.
  allocatePreloads();
  allocateStages();
  bool inputsFirst = gridDependencies && stageBarriers;
  for (int64_t stage = 0; inputsFirst && stage + 1 < stages; ++stage)
    copyStagedTiles(emitter.index(stage), Copies::FunctionInputs);
  waitForGridDependencies();
  preloadTiles();
  for (int64_t stage = 0; stage + 1 < stages; ++stage) {
    copyStagedTiles(emitter.index(stage),
                    inputsFirst ? Copies::Others : Copies::All);
    if (!stageBarriers)
      NVVM::CpAsyncCommitGroupOp::create(b, loc);
  }
  if (!preloaded.empty()) {
    // The preloads are the oldest cp.async group.
    int64_t prologueGroups = stageBarriers || stages == 0 ? 0 : stages - 1;
    NVVM::CpAsyncWaitGroupOp::create(b, loc, prologueGroups);
    emitter.barrier();
  }

  // Loop-invariant ops, once.
  for (Operation &op : body.without_terminator()) {
    if (isa<block::ForloopAccumOp>(op) || phaseOf(op) != LoopPhase::Invariant)
      continue;
    if (failed(lower(&op)) || failed(checkReleases(&op)))
      return failure();
  }

  // The for-loop: per-iteration ops and accumulation steps.
  auto accums = llvm::to_vector(body.getOps<block::ForloopAccumOp>());
  createRegisterSums();
  for (block::ForloopAccumOp accum : accums)
    if (!schedule.isInRegisters(accum))
      initAccumulator(accum);
  bool hasLoopBody =
      !accums.empty() ||
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
    if (stages != 0)
      advancePipeline(iteration);
    for (Operation &op : body.without_terminator()) {
      if (auto accum = dyn_cast<block::ForloopAccumOp>(op)) {
        if (!schedule.isInRegisters(accum))
          accumulate(accum);
      } else if (phaseOf(op) != LoopPhase::InLoop) {
        continue;
      } else if (failed(lower(&op))) {
        return failure();
      }
      if (failed(checkReleases(&op)))
        return failure();
    }
    scf::YieldOp::create(b, loc, registers);
    registers.assign(loop.getResults().begin(), loop.getResults().end());
    b.setInsertionPointAfter(loop);
  }
  iteration = Value();

  // After the loop: results of the accumulators, then the ops that use them.
  for (block::ForloopAccumOp accum : accums)
    finishAccumulator(accum);
  for (Operation &op : body.without_terminator()) {
    if (isa<block::ForloopAccumOp>(op) || phaseOf(op) != LoopPhase::PostLoop)
      continue;
    if (failed(lower(&op)) || failed(checkReleases(&op)))
      return failure();
  }
  return finishKernel();
}

void GraphDefLowering::launchDependents() {
  if (gridDependencies)
    NVVM::GriddepcontrolOp::create(emitter.getBuilder(), emitter.getLoc(),
                                   NVVM::GridDepActionKind::launch_dependents);
}

void GraphDefLowering::waitForGridDependencies() {
  if (gridDependencies)
    NVVM::GriddepcontrolOp::create(emitter.getBuilder(), emitter.getLoc(),
                                   NVVM::GridDepActionKind::wait);
}

LogicalResult GraphDefLowering::finishKernel() {
  gpu::ReturnOp::create(emitter.getBuilder(), emitter.getLoc());
  if (!emitter.followedSharedPlan())
    return graph.emitOpError(
        "internal error: the kernel's shared buffers differ from its "
        "schedule's");
  return success();
}

LogicalResult GraphDefLowering::checkReleases(Operation *op) {
  if (!schedule.synchronizedReleases.contains(op))
    return success();
  OpBuilder &b = emitter.getBuilder();
  Block *block = b.getInsertionBlock();
  auto point = b.getInsertionPoint();
  if (point != block->begin() && isa<gpu::BarrierOp>(*std::prev(point)))
    return success();
  return op->emitOpError("internal error: its lowering does not end with the "
                         "barrier its schedule reuses shared memory after");
}

LogicalResult GraphDefLowering::lower(Operation *op) {
  if (schedule.absorbed.contains(op))
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
