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
#include "llvm/Support/CommandLine.h"

using namespace mlir;

/// mirage-translate's --triton-skip-unsupported.
static llvm::cl::opt<bool> skipUnsupported(
    "triton-skip-unsupported",
    llvm::cl::desc("With --mirage-to-triton: leave out, with a warning, the "
                   "functions the Triton backend does not support"),
    llvm::cl::init(false));

void mlir::mirage::registerTritonTranslation() {
  TranslateFromMLIRRegistration registration(
      "mirage-to-triton",
      "Translate µGraphs into a Triton Python module (docs/Triton.md)",
      [](Operation *op, raw_ostream &output) -> LogicalResult {
        auto module = dyn_cast<ModuleOp>(op);
        if (!module)
          return op->emitError("expected a module");
        return translateToTriton(module, output, skipUnsupported);
      },
      [](DialectRegistry &registry) {
        mirage::registerAllDialects(registry);
        registry.insert<func::FuncDialect>();
      });
}
