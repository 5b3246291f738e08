//===- LoopPhase.cpp - When a block-graph value is computed ---------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Dialect/Block/IR/LoopPhase.h"

#include "Mirage/Dialect/Block/IR/BlockOps.h"

#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::mirage::block;

FailureOr<LoopPhaseMap>
mlir::mirage::block::analyzeLoopPhases(Block &body, int64_t forloopRange) {
  LoopPhaseMap phases;
  auto phaseOf = [&](Value value) {
    Operation *def = value.getDefiningOp();
    return def ? phases.lookup(def) : LoopPhase::Invariant;
  };
  // The values computed in the loop from a running maximum.
  llvm::DenseSet<Value> shifted;
  auto isShifted = [&](Operation &op) {
    return llvm::any_of(op.getOperands(), [&](Value operand) {
      return shifted.contains(operand);
    });
  };
  for (Operation &op : body) {
    if (op.getNumOperands() != 0 &&
        isRunningMaxRead(&op, phaseOf(op.getOperand(0)))) {
      auto accum = op.getOperand(1).getDefiningOp<ForloopAccumOp>();
      if (shifted.contains(accum.getInput()))
        return op.emitOpError()
               << "reads a running maximum whose input depends on a running "
                  "maximum";
      phases[&op] = LoopPhase::InLoop;
      shifted.insert(op.getResult(0));
      continue;
    }
    if (isShifted(op) && !isa<ForloopAccumOp>(op))
      for (Value result : op.getResults())
        shifted.insert(result);
    if (auto load = dyn_cast<InputLoaderOp>(op)) {
      phases[&op] =
          load.isLoopVarying() ? LoopPhase::InLoop : LoopPhase::Invariant;
      continue;
    }
    if (auto accum = dyn_cast<ForloopAccumOp>(op)) {
      if (phaseOf(accum.getInput()) == LoopPhase::PostLoop)
        return op.emitOpError()
               << "accumulates a value that is already accumulated; it is "
                  "only available after the for-loop";
      phases[&op] = LoopPhase::PostLoop;
      continue;
    }
    // Any other op runs in the phase of its operands.
    LoopPhase phase = LoopPhase::Invariant;
    for (Value operand : op.getOperands()) {
      LoopPhase operandPhase = phaseOf(operand);
      if (operandPhase == LoopPhase::Invariant || operandPhase == phase)
        continue;
      if (phase != LoopPhase::Invariant)
        return op.emitOpError()
               << "mixes a value computed in every for-loop iteration with "
                  "an accumulated one; accumulate both with forloop_accum";
      phase = operandPhase;
    }
    if (isa<OutputSaverOp>(op) && phase == LoopPhase::InLoop &&
        forloopRange > 1)
      return op.emitOpError()
             << "saves a value that changes in every one of the "
             << forloopRange
             << " for-loop iterations; accumulate it with forloop_accum";
    phases[&op] = phase;
  }
  return phases;
}

bool mlir::mirage::block::isRunningMaxRead(Operation *op, LoopPhase lhsPhase) {
  if (!isa<SubOp>(op) || lhsPhase != LoopPhase::InLoop)
    return false;
  auto accum = op->getOperand(1).getDefiningOp<ForloopAccumOp>();
  return accum && accum.getKind() == AccumKind::Max;
}
