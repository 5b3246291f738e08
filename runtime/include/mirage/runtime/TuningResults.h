//===- TuningResults.h - Judging and reporting tuning -----------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// What mirage-tune makes of its measurements (docs/Runtime.md, "Tuning"):
// whether a candidate computes what the program as written computes, which
// function wins, and the table it prints. No driver calls.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_RUNTIME_TUNINGRESULTS_H
#define MIRAGE_RUNTIME_TUNINGRESULTS_H

#include "mirage/runtime/Numerics.h"
#include "mirage/runtime/TuningDatabase.h"

#include <string>
#include <vector>

namespace mirage::runtime {

/// Judges a function by how each of its outputs differs from the program
/// as written's: Ok when no output is non-finite where the program as
/// written's is finite and every maximum relative error is at most `rtol`;
/// otherwise Wrong, with a message naming the first bad output. Sets
/// `measurement`'s status, maxRelativeError (the largest over the outputs;
/// unset when a value is not finite) and message.
void judgeOutputs(const std::vector<Difference> &outputs, double rtol,
                  TuningMeasurement &measurement);

/// The Ok measurement with the smallest median time; on a tie the earlier
/// one (so the program as written, measured first, wins ties). Null when
/// none is Ok.
const TuningMeasurement *
fastestCorrect(const std::vector<TuningMeasurement> &measurements);

/// The table mirage-tune prints for `entry`: a heading naming the group,
/// one row per function (candidate, status, cold, warm and chosen time, maximum
/// relative error, speedup over the program as written), the messages of the
/// wrong and failed ones, and the winner. Ends with a newline.
std::string formatTuningReport(const TuningEntry &entry);

} // namespace mirage::runtime

#endif // MIRAGE_RUNTIME_TUNINGRESULTS_H
