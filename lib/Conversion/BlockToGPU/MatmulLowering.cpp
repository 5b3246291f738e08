//===- MatmulLowering.cpp - Matmuls ---------------------------------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A matmul runs on warpgroup tensor cores (wgmma), on mma.sync tensor cores,
// or as SIMT sums; its unary elementwise reader may run as its epilogue; a
// for-loop sum of matmuls may stay in registers (register sums), and two
// chained matmuls may keep their intermediate there (register chains).
//
//===----------------------------------------------------------------------===//

#include "GraphDefLowering.h"
#include "TensorCoreMatmul.h"
#include "WarpgroupMatmul.h"

using namespace mlir;
using namespace mlir::mirage;
using namespace mlir::mirage::lowering;

void GraphDefLowering::lowerMatmul(block::MatmulOp op) {
  if (registerChains.contains(op)) {
    accumulateRegisterChain(op);
    return;
  }
  Tile a = tiles[op.getLhs()], b = tiles[op.getRhs()];
  ArrayRef<int64_t> shape = getShape(op.getResult());
  auto found = op->hasOneUse() ? registerSums.find(*op->user_begin())
                               : registerSums.end();
  if (found != registerSums.end()) {
    const RegisterSum &plan = schedule.registerSums.lookup(found->first);
    ValueRange sums =
        ArrayRef(registers).slice(plan.firstRegister, plan.numRegisters);
    SmallVector<Value> next = found->second->accumulate(emitter, a, b, sums);
    llvm::copy(next, registers.begin() + plan.firstRegister);
    // Without stages no barrier starts the next iteration, whose ops may
    // overwrite the shared tiles read here.
    if (schedule.stages == 0)
      emitter.barrier();
    return;
  }
  MatmulEngine engine = schedule.engines.lookup(op);
  if (engine == MatmulEngine::Wgmma) {
    emitWarpgroupMatmul(emitter, a, b, allocateResult(op.getResult()));
    return;
  }
  // With an epilogue, each sum is rounded to the matmul's element type, as
  // the tile it replaces would hold it, before the epilogue's op.
  OpBuilder &builder = emitter.getBuilder();
  Location loc = emitter.getLoc();
  Operation *epilogue = schedule.epilogues.lookup(op);
  Tile out =
      allocateResult(epilogue ? epilogue->getResult(0) : Value(op.getResult()));
  Type roundedType = getElementType(op.getResult());
  auto finish = [&](ValueRange sums) {
    if (!epilogue)
      return SmallVector<Value>(sums);
    SmallVector<Value> values = emitter.roundTo(sums, roundedType);
    for (Value &value : values)
      value = emitUnary(epilogue, value);
    return values;
  };
  if (engine == MatmulEngine::MmaSync) {
    emitTensorCoreMatmul(emitter, a, b, out, finish);
    return;
  }
  // Groups of consecutive result columns read consecutive rhs columns: one
  // vector load of the rhs per term.
  int64_t width = getSumWidth(b, shape, emitter.getNumThreads(),
                              schedule.choices.vectorSums);
  emitSums(
      shape, a.shape.back(), width,
      [&](ValueRange c, Value k) {
        SmallVector<Value, 4> ac(c), bc(c);
        ac[c.size() - 1] = k;
        bc[c.size() - 2] = k;
        Value lhs = emitter.load(a, ac);
        SmallVector<Value, 8> products;
        for (Value rhs : emitter.loadVector(b, bc, width))
          products.push_back(arith::MulFOp::create(builder, loc, lhs, rhs));
        return products;
      },
      [&](ValueRange c, ValueRange sums) {
        emitter.storeVector(out, c, finish(sums));
      });
}

void GraphDefLowering::accumulateRegisterChain(block::MatmulOp second) {
  const RegisterChain &chain = *schedule.getChain(second);
  block::MatmulOp first = chain.first;
  // E as its tile would hold it: A x B rounded to its element type, then
  // the op between the matmuls, rounded to E's element type. With a running
  // maximum, T likewise (A x B, then the op before T), and E is exp(T - M),
  // each op's result rounded to its element type.
  Type firstType = getElementType(first.getResult());
  Operation *applied = chain.runningMax ? chain.scale : chain.between;
  auto intermediate = [&](ValueRange sums) {
    SmallVector<Value> values = emitter.roundTo(sums, firstType);
    if (!applied)
      return values;
    for (Value &value : values)
      value = emitUnary(applied, value);
    return emitter.roundTo(values, getElementType(applied->getResult(0)));
  };
  Operation *shiftOp =
      chain.runningMax ? chain.between->getOperand(0).getDefiningOp() : nullptr;
  auto shift = [&](ValueRange scores, ValueRange maxima) {
    SmallVector<Value> shifted;
    for (auto [score, max] : llvm::zip(scores, maxima))
      shifted.push_back(emitElementwise(
          emitter.getBuilder(), emitter.getLoc(), *getElementwiseKind(shiftOp),
          {score, max}, getElementwiseScalar(shiftOp)));
    SmallVector<Value> values =
        emitter.roundTo(shifted, getElementType(shiftOp->getResult(0)));
    for (Value &value : values)
      value = emitUnary(chain.between, value);
    return emitter.roundTo(values, getElementType(second.getLhs()));
  };
  using Shift = function_ref<SmallVector<Value>(ValueRange, ValueRange)>;
  SmallVector<Value> next = registerChains.find(second)->second->accumulate(
      emitter, tiles[first.getLhs()], tiles[first.getRhs()],
      tiles[second.getRhs()], intermediate,
      chain.runningMax ? Shift(shift) : Shift(),
      ArrayRef(registers).slice(chain.firstRegister, chain.numRegisters));
  llvm::copy(next, registers.begin() + chain.firstRegister);
  // Without stages no barrier starts the next iteration, whose ops may
  // overwrite the shared tiles read here.
  if (schedule.stages == 0)
    emitter.barrier();
}

void GraphDefLowering::createRegisterSums() {
  int64_t threads = emitter.getNumThreads();
  for (auto &[op, chain] : schedule.registerChains) {
    auto second = cast<block::MatmulOp>(op);
    block::MatmulOp first = chain.first;
    auto sum = std::make_unique<ChainedMatmulSum>(
        getShape(second.getLhs()), getElementType(second.getLhs()),
        getShape(first.getLhs()).back(), getShape(second.getResult()).back(),
        threads, !chain.rowSums.empty(), bool(chain.runningMax));
    // A loop-invariant lhs (attention's queries) is in its tile before the
    // loop.
    if (chain.preloadsLhs)
      sum->preloadLhs(emitter, tiles[first.getLhs()]);
    registerChains[op] = std::move(sum);
  }
  for (auto &[op, sum] : schedule.registerSums) {
    auto matmul = cast<block::ForloopAccumOp>(op)
                      .getInput()
                      .getDefiningOp<block::MatmulOp>();
    ArrayRef<int64_t> shape = getShape(matmul.getResult());
    int64_t depth = getShape(matmul.getLhs()).back();
    if (sum.engine == MatmulEngine::Wgmma)
      registerSums[op] =
          std::make_unique<WarpgroupAccumulator>(depth, shape, threads);
    else
      registerSums[op] =
          std::make_unique<TensorCoreAccumulator>(depth, shape, threads);
  }
  if (schedule.loopRegisters != 0)
    registers.assign(schedule.loopRegisters, emitter.f32(0.0));
  for (auto &[op, chain] : schedule.registerChains)
    llvm::copy(registerChains[op]->getInitialRegisters(emitter),
               registers.begin() + chain.firstRegister);
}

void lowering::populateMatmulLowerings(BlockLowerings &lowerings) {
  lowerings.add<block::MatmulOp>([](GraphDefLowering &l, Operation *op) {
    l.lowerMatmul(cast<block::MatmulOp>(op));
    return success();
  });
}
