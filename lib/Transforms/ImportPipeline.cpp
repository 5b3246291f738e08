//===- ImportPipeline.cpp - mirage-import-pipeline ------------------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Transforms/Passes.h"

#include "Mirage/Conversion/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

void mirage::buildMirageImportPipeline(
    OpPassManager &pm, const MirageImportPipelineOptions &options) {
  OpPassManager &function = pm.nest<func::FuncOp>();
  if (options.from == ImportSource::Tosa)
    function.addPass(createConvertTosaToMirageKernelPass({options.strict}));
  else
    function.addPass(createConvertLinalgToMirageKernelPass({options.strict}));
  pm.addPass(createOutlineKernelGraphsPass());
}

void mirage::registerMirageImportPipeline() {
  PassPipelineRegistration<MirageImportPipelineOptions>(
      "mirage-import-pipeline",
      "Import a program of linalg or TOSA ops and outline its kernel graphs",
      buildMirageImportPipeline);
}
