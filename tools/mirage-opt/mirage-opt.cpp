//===- mirage-opt.cpp - The Mirage optimizer driver -----------------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// mlir-opt with the Mirage dialects and passes, plus every upstream dialect,
// extension, pass and LLVM IR translation the lowering to PTX uses.
//
//===----------------------------------------------------------------------===//

#include "Mirage/InitAllDialects.h"
#include "Mirage/InitAllPasses.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/thread.h"

/// MLIR's parser recurses once per nesting level of the input. The driver
/// runs on a thread with this much stack so that inputs nested hundreds of
/// thousands of levels deep get a diagnostic instead of a stack overflow.
static constexpr unsigned kStackSize = 512u << 20;

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::mirage::registerAllPasses();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerAllToLLVMIRTranslations(registry);
  mlir::mirage::registerAllDialects(registry);

  int status = 0;
  llvm::thread driver(std::optional<unsigned>(kStackSize), [&] {
    status = mlir::asMainReturnCode(mlir::MlirOptMain(
        argc, argv, "Mirage multi-level superoptimizer driver\n", registry));
  });
  driver.join();
  return status;
}
