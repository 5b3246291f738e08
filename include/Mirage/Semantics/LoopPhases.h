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

} // namespace mlir::mirage::sem

#endif // MIRAGE_SEMANTICS_LOOPPHASES_H
