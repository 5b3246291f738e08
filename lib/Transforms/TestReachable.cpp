//===- TestReachable.cpp - mirage-test-reachable --------------------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Transforms/Passes.h"

#include "Mirage/Search/ProgramSchedule.h"
#include "Mirage/Search/Reachability.h"
#include "Mirage/Semantics/Import.h"
#include "Mirage/Transforms/ReferenceFunction.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::mirage {
#define GEN_PASS_DEF_TESTREACHABLEPASS
#include "Mirage/Transforms/Passes.h.inc"
} // namespace mlir::mirage

using namespace mlir;
using namespace mlir::mirage;

namespace {

struct TestReachablePass
    : mirage::impl::TestReachablePassBase<TestReachablePass> {
  using Base::Base;

  void runOnOperation() override {
    FailureOr<ReferenceAndCandidates> functions =
        findReferenceAndCandidates(getOperation(), reference);
    if (failed(functions))
      return signalPassFailure();
    func::FuncOp ref = functions->reference;
    FailureOr<sem::Program> refProgram = sem::buildProgram(ref);
    if (failed(refProgram))
      return signalPassFailure();
    search::BlockSearchOptions options;
    options.timeLimitSeconds = timeLimit;
    options.schedule = search::getScheduler(0, *options.chip, &getContext());
    for (func::FuncOp candidate : functions->candidates) {
      FailureOr<sem::Program> program = sem::buildProgram(candidate);
      if (failed(program))
        return signalPassFailure();
      std::string error;
      FailureOr<search::Reachability> verdict =
          search::checkReachable(*refProgram, *program, options, error);
      if (failed(verdict)) {
        ref.emitError("cannot be searched: ") << error;
        return signalPassFailure();
      }
      if (verdict->reachable)
        candidate.emitRemark("reachable");
      else
        candidate.emitRemark("unreachable (")
            << verdict->rule << "): " << verdict->detail;
    }
  }
};

} // namespace
