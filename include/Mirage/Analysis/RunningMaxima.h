//===- RunningMaxima.h - Online-softmax maxima of a block graph -*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A *running maximum* is a `forloop_accum max` that an op in the loop reads:
// `sub %t, %m`, then `exp`, the shift of online softmax (FlashAttention's
// running maximum; docs/LanguageReference.md, "Running maxima"). Its meaning
// is the maximum over all iterations; the generated kernel keeps the maximum
// so far instead and, whenever it rises from `old` to `new`, multiplies the
// accumulated sums that the shift reaches by `exp(old - new)`. That is exact
// when each such sum is linear in `exp(%t - %m)`: this analysis finds those
// sums and refuses a body where the shift reaches anything else.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_ANALYSIS_RUNNINGMAXIMA_H
#define MIRAGE_ANALYSIS_RUNNINGMAXIMA_H

#include "Mirage/Dialect/Block/IR/LoopPhase.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::mirage {

/// The running maxima of a graph_def body, each with the forloop_accums
/// (sum, sum_last, sum_last_to) whose sums its shift reaches, in block
/// order.
using RunningMaxima = llvm::MapVector<Operation *, SmallVector<Operation *, 2>>;

/// The running maxima of `body`, whose ops have phases `phases`. Fails with
/// an error on the first op that the shift of a running maximum reaches and
/// whose value is not linear in `exp` of the shifted value (anything but
/// `exp` after the `sub`; then `mul` by, `matmul` as the lhs of, or `div`
/// by, values the shift does not reach, `mul_scalar`, `reduction` of the
/// last dimension, and the sum accumulators: sums along rows only, since
/// each row has its own factor), on a sum that two running maxima reach, and on
/// a sum whose dimensions but the last differ from its maximum's.
FailureOr<RunningMaxima>
analyzeRunningMaxima(Block &body, const block::LoopPhaseMap &phases);

} // namespace mlir::mirage

#endif // MIRAGE_ANALYSIS_RUNNINGMAXIMA_H
