//===- mirage-opt.cpp - The Mirage optimizer driver -----------------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// mlir-opt with the Mirage dialects and passes (test passes included: see
// test/lib), plus every upstream dialect, extension, pass and LLVM IR
// translation the lowering to PTX uses.
//
//===----------------------------------------------------------------------===//

#include "Mirage/InitAllDialects.h"
#include "Mirage/InitAllPasses.h"
#include "Mirage/Support/LargeStack.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/ToolOutputFile.h"

#include <cstdio>

namespace mlir::mirage::test {
/// Registers the test passes of test/lib.
void registerMirageTestPasses();
} // namespace mlir::mirage::test

using namespace mlir;

namespace {

/// Reports an error MLIR emits while it sets up the pass pipeline without
/// the blank lines around its message, and drops it when nothing else is
/// left: an option of a pass that does not parse gives such an empty error
/// (llvm::cl has printed the cause, "for the --max-ops option: 'x' value
/// invalid for uint argument!"), which would print as a bare
/// `<unknown>:0: error:`.
LogicalResult trimPipelineError(Diagnostic &diag) {
  if (diag.getSeverity() != DiagnosticSeverity::Error ||
      !isa<UnknownLoc>(diag.getLocation()))
    return failure();
  std::string message = diag.str();
  StringRef trimmed = StringRef(message).trim();
  if (!message.empty() && trimmed.size() == message.size())
    return failure();
  if (!trimmed.empty())
    emitError(diag.getLocation()) << trimmed;
  return success();
}

/// MlirOptMain(argc, argv, toolName, registry), except that the pass
/// pipeline is set up under trimPipelineError.
LogicalResult runMirageOpt(int argc, char **argv, DialectRegistry &registry) {
  auto [inputFilename, outputFilename] = registerAndParseCLIOptions(
      argc, argv, "Mirage multi-level superoptimizer driver\n", registry);
  llvm::InitLLVM initLLVM(argc, argv);
  MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();
  config.setPassPipelineSetupFn([fromCommandLine = config](PassManager &pm) {
    ScopedDiagnosticHandler handler(pm.getContext(), trimPipelineError);
    return fromCommandLine.setupPassPipeline(pm);
  });
  // These print and return without reading any input.
  if (config.shouldShowDialects() || config.shouldListPasses())
    return MlirOptMain(llvm::outs(), llvm::MemoryBuffer::getMemBuffer(""),
                       registry, config);
  if (inputFilename == "-" &&
      llvm::sys::Process::FileDescriptorIsDisplayed(fileno(stdin)))
    llvm::errs() << "(processing input from stdin now, hit ctrl-c/ctrl-d to "
                    "interrupt)\n";
  std::string errorMessage;
  std::unique_ptr<llvm::MemoryBuffer> input =
      openInputFile(inputFilename, &errorMessage);
  if (!input) {
    llvm::errs() << errorMessage << "\n";
    return failure();
  }
  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutputFile(outputFilename, &errorMessage);
  if (!output) {
    llvm::errs() << errorMessage << "\n";
    return failure();
  }
  if (failed(MlirOptMain(output->os(), std::move(input), registry, config)))
    return failure();
  // Kept only when everything succeeded, as mlir-opt does.
  output->keep();
  return success();
}

} // namespace

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::mirage::registerAllPasses();
  mlir::mirage::test::registerMirageTestPasses();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerAllToLLVMIRTranslations(registry);
  mlir::mirage::registerAllDialects(registry);

  return mlir::mirage::runWithLargeStack(
      [&] { return asMainReturnCode(runMirageOpt(argc, argv, registry)); });
}
