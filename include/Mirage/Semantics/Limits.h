//===- Limits.h - Resource limits of evaluation -----------------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The interpreter holds every tensor it evaluates in memory, and runs every
// block and every loop iteration of a graph_def. A program of huge tensors
// must be refused before anything is allocated, and an evaluation that runs
// for hours must stop, each with a message naming the value and the limit
// (docs/Verification.md, "Limits"). checkEvaluationLimits is the one check of
// sizes: Interpreter::run, EquivalenceChecker::create, the search and the
// passes call it. A Deadline carries the time limit into the interpreter's
// loops.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SEMANTICS_LIMITS_H
#define MIRAGE_SEMANTICS_LIMITS_H

#include "Mirage/Semantics/Program.h"
#include "mlir/Support/LLVM.h"

#include <chrono>
#include <cstdint>
#include <string>

namespace mlir::mirage::sem {

/// The most elements of one tensor or tile an evaluation takes, by default.
inline constexpr int64_t kDefaultMaxElements = int64_t(1) << 28;
/// The most bytes of values one evaluation holds at once, by default (8 GiB).
inline constexpr int64_t kDefaultMaxBytes = int64_t(1) << 33;
/// The time limit, in seconds, of each check or evaluation of the passes
/// mirage-check-equivalence and mirage-test-evaluate, by default.
inline constexpr double kDefaultTimeLimitSeconds = 600;
/// The longest time limit any pass takes, in seconds (about four months):
/// the evaluating passes' and mirage-superoptimize's.
inline constexpr double kMaxTimeLimitSeconds = 1e7;

/// What one evaluation of a program may use.
struct EvaluationLimits {
  /// The most elements of any one tensor or tile.
  int64_t maxElements = kDefaultMaxElements;
  /// The most bytes the values of one evaluation take at once: every
  /// kernel-level tensor (kept to the end), the outputs handed back, and the
  /// tiles of the blocks of one cluster.
  int64_t maxBytes = kDefaultMaxBytes;
  /// Seconds each check or evaluation may take (0: no limit); the callers
  /// start a Deadline with it.
  double timeLimitSeconds = 0;
  /// Whether messages name the options that set the limits (max-elements,
  /// max-memory, time-limit).
  bool namesOptions = false;
};

/// The limits that the options max-elements, max-memory and time-limit (in
/// seconds, 0: none) of mirage-check-equivalence and mirage-test-evaluate
/// set. Fails, with a message naming the option and its range, unless the
/// sizes lie in [1, 2^62] and the time limit in [0, 1e7].
FailureOr<EvaluationLimits> getLimitsFromOptions(int64_t maxElements,
                                                 int64_t maxBytes,
                                                 double timeLimitSeconds,
                                                 std::string &error);

/// Fails, with a message naming the value and the limit, unless every tensor
/// and tile of `program` holds at most `limits.maxElements` elements and the
/// values an evaluation holds at once, `valueBytes` bytes each (the domain's
/// `sizeof(Value)`), take at most `limits.maxBytes` bytes.
LogicalResult checkEvaluationLimits(const Program &program, size_t valueBytes,
                                    const EvaluationLimits &limits,
                                    std::string &error);

/// When an evaluation must stop: a time limit that starts when the deadline
/// is made. The interpreter polls it in its loops.
class Deadline {
public:
  /// A deadline that never passes.
  Deadline() = default;
  /// A deadline `seconds` from now; 0, infinity and NaN never pass.
  explicit Deadline(double seconds);

  /// Whether the time is up.
  bool hasPassed() const {
    return seconds > 0 && std::chrono::steady_clock::now() >= end;
  }
  /// Seconds until it passes (negative once it has; infinity for a deadline
  /// that never passes).
  double secondsLeft() const;
  /// The message of an evaluation it stopped.
  std::string describe(const EvaluationLimits &limits) const;

private:
  double seconds = 0;
  std::chrono::steady_clock::time_point end;
};

} // namespace mlir::mirage::sem

#endif // MIRAGE_SEMANTICS_LIMITS_H
