//===- TestKernelSchedule.cpp - mirage-test-kernel-schedule ---------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "TestPasses.h"

#include "Mirage/Analysis/KernelSchedule.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::mirage::test {
#define GEN_PASS_DEF_TESTKERNELSCHEDULEPASS
#include "TestPasses.h.inc"
} // namespace mlir::mirage::test

using namespace mlir;
using namespace mlir::mirage;

namespace {

struct TestKernelSchedulePass
    : mirage::test::impl::TestKernelSchedulePassBase<TestKernelSchedulePass> {
  using Base::Base;

  void runOnOperation() override {
    const Chip *target = lookupChip(chip);
    if (!target) {
      getOperation().emitError()
          << "unknown chip '" << chip << "', expected " << getChipNames();
      return signalPassFailure();
    }
    ScheduleOptions options = {
        stages,          tensorCores, wgmma,          tma,
        maxSharedMemory, rowPrograms, preloadOnePass, runningMaxChains};
    bool failedAny = false;
    for (auto function : getOperation().getOps<func::FuncOp>()) {
      unsigned count = 0;
      function.walk([&](kernel::GraphDefOp graph) {
        llvm::outs() << "kernel " << function.getSymName() << "#" << count++
                     << " on " << target->name << ": ";
        FailureOr<KernelSchedule> schedule =
            scheduleKernel(graph, *target, options);
        if (failed(schedule)) {
          llvm::outs() << "unschedulable\n";
          failedAny = true;
          return;
        }
        schedule->print(llvm::outs(), graph);
      });
    }
    if (failedAny)
      signalPassFailure();
  }
};

} // namespace
