//===- TranslateRegistration.cpp - The Triton translation -----------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/InitAllDialects.h"
#include "Mirage/Target/Triton.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Tools/mlir-translate/Translation.h"

using namespace mlir;

void mlir::mirage::registerTritonTranslation() {
  TranslateFromMLIRRegistration registration(
      "mirage-to-triton",
      "Translate µGraphs into a Triton Python module (docs/Triton.md)",
      [](Operation *op, raw_ostream &output) -> LogicalResult {
        auto module = dyn_cast<ModuleOp>(op);
        if (!module)
          return op->emitError("expected a module");
        return translateToTriton(module, output);
      },
      [](DialectRegistry &registry) {
        mirage::registerAllDialects(registry);
        registry.insert<func::FuncDialect>();
      });
}
