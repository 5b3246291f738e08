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
  if (auto chain = registerChains.find(op); chain != registerChains.end()) {
    accumulateRegisterChain(op, chain->second);
    return;
  }
  // Groups of consecutive result columns read consecutive rhs columns: one
  // vector load of the rhs per term.
  Tile a = tiles[op.getLhs()], b = tiles[op.getRhs()];
  ArrayRef<int64_t> shape = getShape(op.getResult());
  auto found = op->hasOneUse() ? registerSums.find(*op->user_begin())
                               : registerSums.end();
  if (found != registerSums.end()) {
    RegisterSum &sum = found->second;
    size_t count = sum.sum->getNumRegisters();
    SmallVector<Value> next = sum.sum->accumulate(
        emitter, a, b, ArrayRef(registers).slice(sum.firstRegister, count));
    llvm::copy(next, registers.begin() + sum.firstRegister);
    // Without stages no barrier starts the next iteration, whose ops may
    // overwrite the shared tiles read here.
    if (numStages == 0)
      emitter.barrier();
    return;
  }
  if (options.warpgroupMatmuls &&
      canUseWarpgroupMatmul(a.getStorageType(), b.getStorageType(),
                            a.shape.back(), shape, emitter.getNumThreads())) {
    emitWarpgroupMatmul(emitter, a, b, allocateResult(op.getResult()));
    return;
  }
  // With an epilogue, each sum is rounded to the matmul's element type, as
  // the tile it replaces would hold it, before the epilogue's op.
  OpBuilder &builder = emitter.getBuilder();
  Location loc = emitter.getLoc();
  Operation *epilogue = getEpilogue(op);
  Tile out =
      allocateResult(epilogue ? epilogue->getResult(0) : Value(op.getResult()));
  Type roundedType = getElementType(op.getResult());
  auto finish = [&](Value sum) -> Value {
    if (!epilogue)
      return sum;
    return emitUnary(epilogue, emitter.roundTo(sum, roundedType));
  };
  if (epilogue)
    absorbed.insert(epilogue);
  if (options.tensorCores &&
      canUseTensorCores(a.getStorageType(), b.getStorageType(),
                        a.shape.back(), shape, emitter.getNumThreads())) {
    emitTensorCoreMatmul(emitter, a, b, out, finish);
    return;
  }
  int64_t width = getSumWidth(b, shape);
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
        emitter.storeVector(out, c, llvm::map_to_vector(sums, finish));
      });
}

void GraphDefLowering::accumulateRegisterChain(block::MatmulOp second,
                                               RegisterChain &chain) {
  // E as its tile would hold it: A x B rounded to its element type, then
  // the op between the matmuls, rounded to E's element type.
  Type firstType = getElementType(chain.first.getResult());
  Type intermediateType = getElementType(second.getLhs());
  auto intermediate = [&](Value sum) {
    Value value = emitter.roundTo(sum, firstType);
    if (!chain.between)
      return value;
    return emitter.roundTo(emitUnary(chain.between, value), intermediateType);
  };
  size_t count = chain.sum->getNumRegisters();
  SmallVector<Value> next = chain.sum->accumulate(
      emitter, tiles[chain.first.getLhs()], tiles[chain.first.getRhs()],
      tiles[second.getRhs()], intermediate,
      ArrayRef(registers).slice(chain.firstRegister, count));
  llvm::copy(next, registers.begin() + chain.firstRegister);
  // Without stages no barrier starts the next iteration, whose ops may
  // overwrite the shared tiles read here.
  if (numStages == 0)
    emitter.barrier();
}

Operation *GraphDefLowering::getReader(Operation *op) {
  for (auto &[second, chain] : registerChains)
    if (chain.first == op)
      return second;
  return op;
}

Operation *GraphDefLowering::getEpilogue(block::MatmulOp op) {
  if (!op->hasOneUse())
    return nullptr;
  Operation *user = *op->user_begin();
  if (user->getNumOperands() != 1 ||
      !getElementwiseKind(user) ||
      getRunPhase(user) != getRunPhase(op))
    return nullptr;
  return user;
}

//===----------------------------------------------------------------------===//
// Accumulators
//===----------------------------------------------------------------------===//

/// The most f32 registers per thread the register sums of a kernel take.
constexpr int64_t kMaxSumRegisters = 64;

void GraphDefLowering::planRegisterSums() {
  if (!options.tensorCores)
    return;
  int64_t count = 0;
  for (auto accum : graph.getBodyBlock().getOps<block::ForloopAccumOp>())
    planRegisterChain(accum, count);
  for (auto accum : graph.getBodyBlock().getOps<block::ForloopAccumOp>()) {
    auto matmul = accum.getInput().getDefiningOp<block::MatmulOp>();
    if (isInRegisters(accum) || accum.getKind() != block::AccumKind::Sum ||
        !matmul ||
        !matmul->hasOneUse() || phases.lookup(matmul) != LoopPhase::InLoop)
      continue;
    // In-loop values are stored at their element type.
    ArrayRef<int64_t> shape = getShape(matmul.getResult());
    int64_t depth = getShape(matmul.getLhs()).back();
    Type lhsType = getElementType(matmul.getLhs());
    Type rhsType = getElementType(matmul.getRhs());
    int64_t threads = emitter.getNumThreads();
    std::unique_ptr<MatmulAccumulator> sum;
    if (options.warpgroupMatmuls &&
        canUseWarpgroupMatmul(lhsType, rhsType, depth, shape, threads))
      sum = std::make_unique<WarpgroupAccumulator>(depth, shape, threads);
    else if (canUseTensorCores(lhsType, rhsType, depth, shape, threads))
      sum = std::make_unique<TensorCoreAccumulator>(depth, shape, threads);
    if (!sum || count + sum->getNumRegisters() > kMaxSumRegisters)
      continue;
    int64_t added = sum->getNumRegisters();
    registerSums.insert({accum, RegisterSum{std::move(sum), size_t(count)}});
    count += added;
  }
  if (count != 0)
    registers.assign(count, emitter.f32(0.0));
}

void GraphDefLowering::planRegisterChain(block::ForloopAccumOp accum,
                                         int64_t &count) {
  auto second = accum.getInput().getDefiningOp<block::MatmulOp>();
  if (accum.getKind() != block::AccumKind::Sum || !second ||
      !second->hasOneUse() || phases.lookup(second) != LoopPhase::InLoop)
    return;
  Value intermediate = second.getLhs();
  if (intermediate == second.getRhs())
    return;
  // E is the first matmul's result, or its epilogue's.
  Operation *between = nullptr;
  auto first = intermediate.getDefiningOp<block::MatmulOp>();
  if (!first) {
    between = intermediate.getDefiningOp();
    if (between && between->getNumOperands() == 1)
      first = between->getOperand(0).getDefiningOp<block::MatmulOp>();
    if (!first || getEpilogue(first) != between)
      return;
  }
  if (phases.lookup(first) != LoopPhase::InLoop)
    return;
  SmallVector<block::ForloopAccumOp> rowSums;
  for (Operation *user : intermediate.getUsers()) {
    if (user == second)
      continue;
    auto rowSum = dyn_cast<block::ForloopAccumOp>(user);
    if (!rowSum || rowSum.getKind() != block::AccumKind::SumLast)
      return;
    rowSums.push_back(rowSum);
  }
  ArrayRef<int64_t> shape = getShape(intermediate);
  int64_t depth = getShape(first.getLhs()).back();
  int64_t columns = getShape(second.getResult()).back();
  int64_t threads = emitter.getNumThreads();
  if (!canChainMatmuls(getElementType(first.getLhs()),
                       getElementType(first.getRhs()),
                       getElementType(intermediate),
                       getElementType(second.getRhs()), shape, depth, columns,
                       threads))
    return;
  auto sum = std::make_unique<ChainedMatmulSum>(shape, depth, columns, threads,
                                                !rowSums.empty());
  int64_t added = sum->getNumRegisters();
  if (count + added > kMaxSumRegisters)
    return;
  absorbed.insert(first);
  if (between)
    absorbed.insert(between);
  chainedAccums[accum] = second;
  for (block::ForloopAccumOp rowSum : rowSums)
    chainedAccums[rowSum] = second;
  registerChains.insert(
      {second, RegisterChain{std::move(sum), size_t(count), first, between}});
  count += added;
}

void lowering::populateMatmulLowerings(BlockLowerings &lowerings) {
  lowerings.add<block::MatmulOp>([](GraphDefLowering &l, Operation *op) {
    l.lowerMatmul(cast<block::MatmulOp>(op));
    return success();
  });
}
