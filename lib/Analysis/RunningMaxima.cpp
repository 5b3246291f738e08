//===- RunningMaxima.cpp - Online-softmax maxima of a block graph ---------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Analysis/RunningMaxima.h"

#include "Mirage/Dialect/Block/IR/BlockOps.h"

#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::mirage;
using block::LoopPhase;

/// Whether `user`, an op that reads `value` (a multiple of `exp` of a
/// shifted value) in the loop, is linear in it given that `reached` holds
/// the other values the shift reaches.
static bool isLinearUse(Operation *user, Value value,
                        const llvm::DenseSet<Value> &reached) {
  auto reachedOther = [&](Operation *op) {
    return llvm::count_if(op->getOperands(), [&](Value operand) {
             return reached.contains(operand);
           }) > 1;
  };
  // The factor is per row: sums along a row keep it, sums across rows
  // (a reduction of another dimension, the shifted value as a matmul's
  // rhs) would mix rows of different factors.
  if (isa<block::MulScalarOp>(user))
    return true;
  if (auto reduction = dyn_cast<block::ReductionOp>(user))
    return reduction.getDim() + 1 ==
           cast<ShapedType>(value.getType()).getRank();
  if (auto matmul = dyn_cast<block::MatmulOp>(user))
    return matmul.getLhs() == value && !reachedOther(user);
  if (isa<block::MulOp>(user))
    return !reachedOther(user);
  if (auto div = dyn_cast<block::DivOp>(user))
    return div.getLhs() == value && !reached.contains(div.getRhs());
  return false;
}

FailureOr<RunningMaxima>
mlir::mirage::analyzeRunningMaxima(Block &body,
                                   const block::LoopPhaseMap &phases) {
  RunningMaxima maxima;
  llvm::DenseMap<Operation *, Operation *> reachedBy;
  for (Operation &op : body) {
    if (op.getNumOperands() == 0 ||
        !block::isRunningMaxRead(
            &op, phases.lookup(op.getOperand(0).getDefiningOp())))
      continue;
    auto max = op.getOperand(1).getDefiningOp<block::ForloopAccumOp>();
    SmallVector<Operation *, 2> &sums = maxima[max];
    ArrayRef<int64_t> maxShape =
        cast<ShapedType>(max.getResult().getType()).getShape();
    // The values the shift reaches, from `exp` of the shifted value on.
    llvm::DenseSet<Value> reached;
    SmallVector<Value> worklist;
    for (Operation *user : op.getResult(0).getUsers()) {
      if (!isa<block::ExpOp>(user))
        return user->emitOpError()
               << "reads a value shifted by a running maximum; only exp may "
                  "(online softmax rescales the sums of exp)";
      reached.insert(user->getResult(0));
      worklist.push_back(user->getResult(0));
    }
    while (!worklist.empty()) {
      Value value = worklist.pop_back_val();
      for (Operation *user : value.getUsers()) {
        if (auto accum = dyn_cast<block::ForloopAccumOp>(user)) {
          ArrayRef<int64_t> shape =
              cast<ShapedType>(accum.getResult().getType()).getShape();
          if (accum.getKind() == block::AccumKind::Max ||
              accum.getKind() == block::AccumKind::RmsLast)
            return accum.emitOpError()
                   << "accumulates a value shifted by a running maximum; "
                      "only sums of it can be rescaled as the maximum rises";
          if (shape.drop_back() != maxShape.drop_back())
            return accum.emitOpError()
                   << "sums a value shifted by a running maximum into a "
                      "tile whose dimensions but the last differ from the "
                      "maximum's";
          auto [entry, inserted] = reachedBy.try_emplace(accum, max);
          if (!inserted && entry->second != max)
            return accum.emitOpError()
                   << "sums values shifted by two running maxima";
          if (inserted)
            sums.push_back(accum);
          continue;
        }
        if (phases.lookup(user) != LoopPhase::InLoop ||
            !isLinearUse(user, value, reached))
          return user->emitOpError()
                 << "uses a value shifted by a running maximum in a way the "
                    "maximum's rescaling cannot follow (only products by, and "
                    "divisions by, other values, sums and accumulated sums "
                    "can)";
        if (reached.insert(user->getResult(0)).second)
          worklist.push_back(user->getResult(0));
      }
    }
  }
  for (auto &entry : maxima)
    llvm::sort(entry.second, [](Operation *a, Operation *b) {
      return a->isBeforeInBlock(b);
    });
  return maxima;
}
