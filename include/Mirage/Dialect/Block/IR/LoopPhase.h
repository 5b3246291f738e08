//===- LoopPhase.h - When a block-graph value is computed -------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A block graph runs once per for-loop iteration, except for the ops that
// consume accumulated values, which run once after the loop
// (docs/LanguageReference.md, "Loop phases").
// Every op of a graph_def body therefore has a phase, derived from its
// operands.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_DIALECT_BLOCK_IR_LOOPPHASE_H
#define MIRAGE_DIALECT_BLOCK_IR_LOOPPHASE_H

#include "mlir/IR/Block.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir::mirage::block {

/// When the results of a block-graph op are computed.
enum class LoopPhase {
  /// The same value in every iteration and after the loop (loads without
  /// `fmap`, and anything computed only from them).
  Invariant,
  /// Recomputed in every iteration: depends on a load with `fmap`.
  InLoop,
  /// Computed once after the loop: depends on a `forloop_accum`.
  PostLoop,
};

/// Whether `op`, whose first operand is of phase `lhsPhase`, reads a
/// *running maximum*: a `sub` of a `forloop_accum max` from a value computed
/// in the loop. Such a read sees the maximum over all iterations (online
/// softmax's shift, docs/LanguageReference.md "Running maxima") and runs in
/// the loop.
bool isRunningMaxRead(Operation *op, LoopPhase lhsPhase);

/// The phase of every op of a graph_def body.
using LoopPhaseMap = llvm::DenseMap<Operation *, LoopPhase>;

/// Computes the phase of every op of `body`, the body of a graph_def whose
/// for-loop has `forloopRange` iterations. Emits an error at the first op
/// that breaks a phase rule (mixing per-iteration and accumulated operands,
/// accumulating an accumulated value, saving a per-iteration value of a loop
/// with more than one iteration, a running maximum of a value that depends on
/// a running maximum) and fails.
FailureOr<LoopPhaseMap> analyzeLoopPhases(Block &body, int64_t forloopRange);

} // namespace mlir::mirage::block

#endif // MIRAGE_DIALECT_BLOCK_IR_LOOPPHASE_H
