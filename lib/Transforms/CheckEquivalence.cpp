//===- CheckEquivalence.cpp - mirage-check-equivalence --------------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Transforms/Passes.h"

#include "Mirage/Semantics/Equivalence.h"
#include "Mirage/Semantics/Import.h"
#include "Mirage/Semantics/Interpreter.h"
#include "Mirage/Transforms/ReferenceFunction.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

namespace mlir::mirage {
#define GEN_PASS_DEF_CHECKEQUIVALENCEPASS
#include "Mirage/Transforms/Passes.h.inc"
} // namespace mlir::mirage

using namespace mlir;
using namespace mlir::mirage;

namespace {

/// Float64 outputs of `program` on `inputs`, or failure.
FailureOr<std::vector<sem::Tensor<double>>>
evaluateFloat(const sem::Program &program, ArrayRef<sem::Tensor<double>> inputs,
              const sem::EvaluationLimits &limits,
              const sem::Deadline &deadline, std::string &error) {
  sem::FloatDomain domain;
  std::vector<sem::Tensor<double>> outputs;
  if (failed(sem::Interpreter<sem::FloatDomain>(domain, limits)
                 .run(program, inputs, outputs, error, deadline)))
    return failure();
  return outputs;
}

struct CheckEquivalencePass
    : mirage::impl::CheckEquivalencePassBase<CheckEquivalencePass> {
  using Base::Base;

  void runOnOperation() override {
    std::string error;
    FailureOr<sem::EvaluationLimits> limits =
        sem::getLimitsFromOptions(maxElements, maxMemory, timeLimit, error);
    if (failed(limits)) {
      getOperation().emitError(error);
      return signalPassFailure();
    }
    FailureOr<ReferenceAndCandidates> functions =
        findReferenceAndCandidates(getOperation(), reference);
    if (failed(functions))
      return signalPassFailure();
    func::FuncOp ref = functions->reference;

    FailureOr<sem::Program> refProgram = sem::buildProgram(ref);
    if (failed(refProgram))
      return signalPassFailure();
    sem::EquivalenceOptions options;
    options.seed = seed;
    options.trials = trials;
    options.limits = *limits;
    options.reduceParallelDimensions = reduceDimensions;
    sem::Deadline deadline(limits->timeLimitSeconds);
    FailureOr<sem::EquivalenceChecker> checker =
        sem::EquivalenceChecker::create(*refProgram, options, error, deadline);
    if (failed(checker)) {
      ref.emitError("cannot be checked: ") << error;
      return signalPassFailure();
    }
    // `create` checked the reference's sizes in field values, which are
    // larger than doubles: its float64 inputs fit the limits too.
    std::vector<sem::Tensor<double>> floatInputs =
        sem::makeRandomFloatInputs(*refProgram, seed);
    FailureOr<std::vector<sem::Tensor<double>>> refFloat =
        evaluateFloat(*refProgram, floatInputs, *limits, deadline, error);
    if (failed(refFloat))
      ref.emitWarning("no float64 comparison: ") << error;

    bool allEquivalent = true;
    for (func::FuncOp candidate : functions->candidates) {
      if (failed(checkCandidate(candidate, ref, *checker, *limits, floatInputs,
                                refFloat))) {
        allEquivalent = false;
        ++numDifferent;
      } else {
        ++numEquivalent;
      }
    }
    if (!allEquivalent)
      signalPassFailure();
  }

  /// Checks `candidate` against `ref`, both in the field and, when the
  /// reference's float64 outputs `refFloat` are known, in float64, within
  /// one time limit.
  LogicalResult
  checkCandidate(func::FuncOp candidate, func::FuncOp ref,
                 const sem::EquivalenceChecker &checker,
                 const sem::EvaluationLimits &limits,
                 ArrayRef<sem::Tensor<double>> floatInputs,
                 const FailureOr<std::vector<sem::Tensor<double>>> &refFloat) {
    FailureOr<sem::Program> program = sem::buildProgram(candidate);
    if (failed(program))
      return failure();
    std::string error;
    sem::Deadline deadline(limits.timeLimitSeconds);
    FailureOr<sem::EquivalenceVerdict> verdict =
        checker.check(*program, error, deadline);
    if (failed(verdict))
      return emitError(candidate.getLoc(), "cannot be checked against @")
             << ref.getSymName() << ": " << error;
    InFlightDiagnostic diag =
        verdict->equivalent
            ? emitRemark(candidate.getLoc(), "is equivalent to @")
            : emitError(candidate.getLoc(), "is not equivalent to @");
    diag << ref.getSymName() << ": ";
    if (verdict->equivalent) {
      diag << verdict->trials << " trials, false-positive probability <= 2^"
           << llvm::formatv("{0:F1}", verdict->log2Bound).str();
      for (const sem::DimensionReduction &cut : verdict->reductions)
        diag << llvm::formatv("; output dimension {0} checked at {1} of its "
                              "{2} indices",
                              cut.outputDim, cut.to, cut.from)
                    .str();
    } else {
      const sem::Mismatch &m = *verdict->mismatch;
      diag << "output " << m.output << " differs at ["
           << llvm::join(
                  llvm::map_range(m.index,
                                  [](int64_t i) { return std::to_string(i); }),
                  ", ")
           << "] (trial " << m.trial << ")";
    }
    // The float64 comparison is evidence for either verdict.
    if (failed(refFloat))
      return success(verdict->equivalent);
    FailureOr<std::vector<sem::Tensor<double>>> floatOut =
        evaluateFloat(*program, floatInputs, limits, deadline, error);
    if (failed(floatOut))
      diag << "; no float64 comparison: " << error;
    else
      diag << "; float64 relative error "
           << llvm::formatv("{0:e1}",
                            sem::maxRelativeError(*refFloat, *floatOut))
                  .str();
    return success(verdict->equivalent);
  }
};

} // namespace
