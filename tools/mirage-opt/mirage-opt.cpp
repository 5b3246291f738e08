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
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

namespace mlir::mirage::test {
/// Registers the test passes of test/lib.
void registerMirageTestPasses();
} // namespace mlir::mirage::test

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::mirage::registerAllPasses();
  mlir::mirage::test::registerMirageTestPasses();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerAllToLLVMIRTranslations(registry);
  mlir::mirage::registerAllDialects(registry);

  return mlir::mirage::runWithLargeStack([&] {
    return mlir::asMainReturnCode(mlir::MlirOptMain(
        argc, argv, "Mirage multi-level superoptimizer driver\n", registry));
  });
}
