//===- TranslateRegistration.cpp - µGraph JSON translations ---------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/InitAllDialects.h"
#include "Mirage/Target/MirageJSON.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Path.h"

using namespace mlir;

static llvm::cl::opt<std::string> functionPrefix(
    "mirage-json-prefix",
    llvm::cl::desc("Name prefix of the imported functions (default: the "
                   "file name without its extension, or 'graph' for stdin)"));

void mlir::mirage::registerMirageJSONTranslations() {
  TranslateToMLIRRegistration importRegistration(
      "import-mirage-json",
      "Import the public Mirage implementation's saved µGraph JSON",
      [](llvm::SourceMgr &sourceMgr, MLIRContext *context) {
        std::string prefix = functionPrefix;
        if (prefix.empty()) {
          StringRef name = sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())
                               ->getBufferIdentifier();
          prefix =
              name == "<stdin>" ? "graph" : llvm::sys::path::stem(name).str();
        }
        return importMirageJSON(sourceMgr, context, prefix);
      });
  TranslateFromMLIRRegistration exportRegistration(
      "export-mirage-json",
      "Export kernel graphs as the public Mirage implementation's µGraph JSON",
      [](Operation *op, raw_ostream &output) -> LogicalResult {
        auto module = dyn_cast<ModuleOp>(op);
        if (!module)
          return op->emitError("expected a module");
        return exportMirageJSON(module, output);
      },
      [](DialectRegistry &registry) {
        mirage::registerAllDialects(registry);
        registry.insert<func::FuncDialect>();
      });
}
