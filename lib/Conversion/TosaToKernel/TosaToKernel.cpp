//===- TosaToKernel.cpp - convert-tosa-to-mirage-kernel -------------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// TOSA reaches the kernel dialect through upstream's lowering to linalg on
// tensors: the pass runs that lowering and imports the result with
// convert-linalg-to-mirage-kernel.
//
//===----------------------------------------------------------------------===//

#include "Mirage/Conversion/Passes.h"

#include "mlir/Conversion/TosaToArith/TosaToArith.h"
#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
#include "mlir/Conversion/TosaToTensor/TosaToTensor.h"
#include "mlir/Dialect/Tosa/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"

namespace mlir::mirage {
#define GEN_PASS_DEF_CONVERTTOSATOMIRAGEKERNELPASS
#include "Mirage/Conversion/Passes.h.inc"
} // namespace mlir::mirage

using namespace mlir;

namespace {

struct ConvertTosaToMirageKernelPass
    : public mirage::impl::ConvertTosaToMirageKernelPassBase<
          ConvertTosaToMirageKernelPass> {
  using Base::Base;

  /// The passes run on each function.
  OpPassManager buildPipeline() const {
    OpPassManager pm(func::FuncOp::getOperationName());
    pm.addPass(tosa::createTosaMakeBroadcastablePass());
    pm.addPass(tosa::createTosaToLinalgNamed());
    pm.addPass(tosa::createTosaToLinalg());
    pm.addPass(createTosaToArithPass());
    pm.addPass(createTosaToTensorPass());
    pm.addPass(mirage::createConvertLinalgToMirageKernelPass(
        {strict, /*normalize=*/true}));
    return pm;
  }

  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    buildPipeline().getDependentDialects(registry);
  }

  void runOnOperation() override {
    OpPassManager pipeline = buildPipeline();
    if (failed(runPipeline(pipeline, getOperation())))
      signalPassFailure();
  }
};

} // namespace
