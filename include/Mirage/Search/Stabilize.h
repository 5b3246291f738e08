//===- Stabilize.h - Online softmax from plain softmax µGraphs --*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Softmax and attention as models write them subtract the row maximum
// before `exp`. The maximum cancels between a softmax's numerators and
// their sum, so the program without it (the *plain* program) computes the
// same, and the search explores that one; but a µGraph of the plain program
// computes `exp` of raw scores, which overflows f16 for real logits. Each
// candidate is therefore *stabilised* before it is kept: every `exp` of a
// graph_def body gets the maximum of its rows subtracted first (a running
// maximum in a for-loop, FlashAttention's form; the tile's own maximum
// without one), and a split µGraph's first kernel saves its blocks' maxima
// beside their parts, which the combining kernel then rescales by
// `exp(m_part - max)` as it adds them (FlashDecoding's form).
// docs/Search.md, "Max-subtracted softmax".
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SEARCH_STABILIZE_H
#define MIRAGE_SEARCH_STABILIZE_H

#include "Mirage/Semantics/Program.h"

#include <optional>
#include <string>

namespace mlir::mirage::search {

/// `reference` with each `sub %t, %m` where `%m` is `reduction_max` of `%t`
/// over its last dimension replaced by `%t`, when it has one and no other
/// `reduction_max`; else nothing (with the reason in `why`). The result
/// computes the same when each such maximum only shifts a softmax, which
/// the caller must verify.
std::optional<sem::Program> removeMaxShifts(const sem::Program &reference,
                                            std::string &why);

/// The stabilised form of `candidate`, a µGraph of a program without
/// maximum shifts (removeMaxShifts): in every graph_def body, each `exp`
/// takes its operand minus the maximum of its last dimension (running over
/// the for-loop when the operand changes in it), and each kernel whose
/// results another graph_def reads saves its maxima, with which that
/// kernel rescales the parts it sums. Nothing when the candidate has no
/// such form: an `exp` outside a graph_def body or in a thread graph, or a
/// combining kernel that uses a part other than by summing it over the
/// split. The result must still be verified, and scheduled.
std::optional<sem::Program> stabilize(const sem::Program &candidate);

} // namespace mlir::mirage::search

#endif // MIRAGE_SEARCH_STABILIZE_H
