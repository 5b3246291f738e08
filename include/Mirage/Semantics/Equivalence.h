//===- Equivalence.h - Probabilistic equivalence of programs ----*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Decides whether two programs compute the same function by evaluating them
// in the finite field of FieldDomain on shared uniformly random inputs, over
// several independent trials. "Equivalent" is wrong with probability at most
// 2^log2Bound. "Not equivalent" is right for programs of the LAX fragment;
// with non-LAX functions (keyed random functions) it means "not provably
// equivalent": identities of those functions, such as silu's expansion, are
// not known (docs/Verification.md).
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SEMANTICS_EQUIVALENCE_H
#define MIRAGE_SEMANTICS_EQUIVALENCE_H

#include "Mirage/Semantics/Domains.h"
#include "Mirage/Semantics/Limits.h"
#include "Mirage/Semantics/ParallelDimensions.h"
#include "Mirage/Semantics/Program.h"
#include "Mirage/Semantics/Tensor.h"
#include "mlir/Support/LLVM.h"

#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace mlir::mirage::sem {

struct EquivalenceOptions {
  /// Seeds the inputs and the keyed random functions of every trial.
  uint64_t seed = 1;
  /// Independent trials per check; each multiplies the error bound by its
  /// own. 0 picks, per candidate, enough to reach `targetLog2Bound` (at
  /// least 2, at most `maxTrials`).
  unsigned trials = 0;
  double targetLog2Bound = -40.0;
  unsigned maxTrials = 8;
  /// What each evaluation of the reference or a candidate may use.
  EvaluationLimits limits;
  /// Checks each candidate at reduced sizes where its parallel dimensions
  /// allow (reduceParallelDimensions): the same verdict, at a fraction of
  /// the cost.
  bool reduceParallelDimensions = true;
};

/// The first output element where a candidate differs from the reference.
struct Mismatch {
  unsigned trial = 0;
  unsigned output = 0;
  SmallVector<int64_t, 4> index;
};

struct EquivalenceVerdict {
  bool equivalent = false;
  unsigned trials = 0;
  /// log2 of the probability that an "equivalent" verdict is wrong.
  double log2Bound = 0.0;
  /// Set when not equivalent. Its index holds in the full-size outputs too
  /// (a reduced check compares their first indices along each reduction).
  std::optional<Mismatch> mismatch;
  /// The dimensions the check was cut down along; empty at full size.
  SmallVector<DimensionReduction, 2> reductions;
};

/// Checks candidates against one reference. Inputs and the reference's
/// outputs are computed once per trial, when a check first needs them, so
/// each candidate costs one evaluation per trial; a candidate checked at
/// reduced sizes is checked against the reference reduced alike, whose
/// trials are kept per reduced shape. `check` may be called from several
/// threads at once.
class EquivalenceChecker {
public:
  /// Prepares the trials. Fails when the reference exceeds the limits of
  /// `options` (before anything is allocated), leaves the verifiable
  /// fragment (e.g. `exp` of an `exp`), or its first evaluation does not
  /// end before `deadline`; that evaluation is at the smallest sizes its
  /// parallel dimensions allow when `reduceParallelDimensions` is set.
  static FailureOr<EquivalenceChecker>
  create(const Program &reference, const EquivalenceOptions &options,
         std::string &error, const Deadline &deadline = Deadline());

  /// Compares `candidate` with the reference. Fails (with `error`) when the
  /// signatures differ, the candidate exceeds the limits or leaves the
  /// verifiable fragment, or the trials (and the reference's trials they
  /// compute first) do not end before `deadline`.
  FailureOr<EquivalenceVerdict>
  check(const Program &candidate, std::string &error,
        const Deadline &deadline = Deadline()) const;

private:
  /// The random inputs of one trial and the reference's outputs on them.
  struct Trial {
    std::vector<Tensor<FieldValue>> inputs, outputs;
  };

  /// The checkers of the reference at reduced sizes, by their input shapes.
  struct ReducedCheckers {
    std::mutex mutex;
    std::map<std::string, std::unique_ptr<EquivalenceChecker>> checkers;
  };

  EquivalenceChecker(const Program &reference, EquivalenceOptions options)
      : reference(reference), options(options),
        trialsMutex(std::make_unique<std::mutex>()),
        reduced(std::make_unique<ReducedCheckers>()) {}

  /// Trial `index`, computed on first use, before `deadline`.
  FailureOr<const Trial *> getTrial(unsigned index, std::string &error,
                                    const Deadline &deadline) const;
  /// The checker of `reducedReference`, this reference at reduced sizes.
  FailureOr<const EquivalenceChecker *>
  getReducedChecker(const Program &reducedReference, std::string &error,
                    const Deadline &deadline) const;
  /// `check` at the full size.
  FailureOr<EquivalenceVerdict> checkFullSize(const Program &candidate,
                                              std::string &error,
                                              const Deadline &deadline) const;

  Program reference;
  EquivalenceOptions options;
  std::unique_ptr<std::mutex> trialsMutex;
  /// A deque: references to computed trials stay valid as it grows.
  mutable std::deque<Trial> trials;
  std::unique_ptr<ReducedCheckers> reduced;
};

/// The probability that one trial calls two different programs equivalent,
/// from a static analysis of both (docs/Verification.md), as log2.
double log2TrialErrorBound(const Program &reference, const Program &candidate);

/// Uniformly random inputs in [-1, 1) for `program`, from `seed`.
std::vector<Tensor<double>> makeRandomFloatInputs(const Program &program,
                                                  uint64_t seed);

/// The largest relative error ||a - b|| / ||a|| over the outputs of two
/// float evaluations, over the finite elements; non-finite elements must
/// match (NaN for NaN, equal infinities), or the error is infinite.
double maxRelativeError(ArrayRef<Tensor<double>> expected,
                        ArrayRef<Tensor<double>> actual);

} // namespace mlir::mirage::sem

#endif // MIRAGE_SEMANTICS_EQUIVALENCE_H
