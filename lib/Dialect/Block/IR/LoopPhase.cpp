//===- LoopPhase.cpp - When a block-graph value is computed ---------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Dialect/Block/IR/LoopPhase.h"

#include "Mirage/Dialect/Block/IR/BlockOps.h"

using namespace mlir;
using namespace mlir::mirage::block;

FailureOr<LoopPhaseMap>
mlir::mirage::block::analyzeLoopPhases(Block &body, int64_t forloopRange) {
  LoopPhaseMap phases;
  auto phaseOf = [&](Value value) {
    Operation *def = value.getDefiningOp();
    return def ? phases.lookup(def) : LoopPhase::Invariant;
  };
  for (Operation &op : body) {
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
