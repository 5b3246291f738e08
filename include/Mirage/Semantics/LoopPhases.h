//===- LoopPhases.h - Loop phases of a compact block graph ------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SEMANTICS_LOOPPHASES_H
#define MIRAGE_SEMANTICS_LOOPPHASES_H

#include "Mirage/Dialect/Block/IR/LoopPhase.h"
#include "Mirage/Semantics/Program.h"

#include <vector>

namespace mlir::mirage::sem {

using block::LoopPhase;

/// The phase of every node of a graph_def body (docs/LanguageReference.md,
/// "Loop phases"), by the rules
/// of block::analyzeLoopPhases; the body is assumed to obey them.
std::vector<LoopPhase> computeLoopPhases(const Graph &body);

/// For every node of `body` (of node phases `phases`), whether it is a
/// running maximum: a `forloop_accum max` that an op in the loop reads
/// (block::isRunningMaxRead).
std::vector<bool> getRunningMaxima(const Graph &body,
                                   const std::vector<LoopPhase> &phases);

} // namespace mlir::mirage::sem

#endif // MIRAGE_SEMANTICS_LOOPPHASES_H
