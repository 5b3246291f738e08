//===- EstimateCost.cpp - mirage-estimate-cost ----------------------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Transforms/Passes.h"

#include "Mirage/Conversion/CodegenOptions.h"
#include "Mirage/Search/CostModel.h"
#include "Mirage/Search/ProgramSchedule.h"
#include "Mirage/Semantics/Import.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/FormatVariadic.h"

namespace mlir::mirage {
#define GEN_PASS_DEF_ESTIMATECOSTPASS
#include "Mirage/Transforms/Passes.h.inc"
} // namespace mlir::mirage

using namespace mlir;
using namespace mlir::mirage;

namespace {

struct EstimateCostPass : mirage::impl::EstimateCostPassBase<EstimateCostPass> {
  using Base::Base;

  void runOnOperation() override {
    const Chip *gpu = lookupChip(chip);
    if (!gpu) {
      getOperation().emitError("chip must be ")
          << getChipNames() << ", got '" << chip << "'";
      return signalPassFailure();
    }
    for (auto function : getOperation().getOps<func::FuncOp>()) {
      if (function.isExternal())
        continue;
      FailureOr<sem::Program> program = sem::buildProgram(function);
      if (failed(program))
        return signalPassFailure();
      // Each graph_def as the code generator schedules it for the chip.
      std::optional<search::ProgramFacts> facts =
          search::scheduleFunction(function, *program, {gpu}, *gpu,
                                   CodegenOptions().getScheduleOptions());
      if (!facts)
        return signalPassFailure();
      search::CostEstimate cost = search::estimateCost(*program, *gpu, *facts);
      function.emitRemark(llvm::formatv(
          "@{0}: estimated {1:f2} us on {2}: {3} bytes of global memory, {4} "
          "multiply-adds, {5} launches, {6} bytes of shared memory per block",
          function.getSymName(), cost.microseconds, gpu->name, cost.globalBytes,
          static_cast<int64_t>(cost.multiplyAdds), cost.launches,
          cost.sharedBytes));
    }
  }
};

} // namespace
