//===- EstimateCost.cpp - mirage-estimate-cost ----------------------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Transforms/Passes.h"

#include "Mirage/Search/CostModel.h"
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
      search::CostEstimate cost = search::estimateCost(*program, *gpu);
      function.emitRemark(llvm::formatv(
          "@{0}: estimated {1:f2} us on {2}: {3} bytes of global memory, {4} "
          "multiply-adds, {5} launches, {6} bytes of shared memory per "
          "block{7}",
          function.getSymName(), cost.microseconds, gpu->name, cost.globalBytes,
          static_cast<int64_t>(cost.multiplyAdds), cost.launches,
          cost.sharedBytes,
          cost.fitsSharedMemory() ? "" : " (more than the chip has)"));
    }
  }
};

} // namespace
