//===- BundleMain.cpp - mirage-translate --mirage-to-bundle ---------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A bundle is a directory, which the translation registry's one-stream
// interface cannot write; mirage-translate hands `--mirage-to-bundle` runs to
// this driver instead.
//
//===----------------------------------------------------------------------===//

#include "Mirage/Target/Bundle.h"

#include "Mirage/InitAllDialects.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;

int mirage::runBundleMain(int argc, char **argv) {
  namespace cl = llvm::cl;
  static cl::opt<std::string> input(cl::Positional, cl::desc("<input file>"),
                                    cl::init("-"));
  static cl::opt<std::string> output(
      "o", cl::desc("Directory to write the bundle into"), cl::Required,
      cl::value_desc("directory"));
  static cl::opt<bool> toBundle(
      "mirage-to-bundle",
      cl::desc("Compile kernel graphs into a bundle: PTX per chip + plan.json"));
  static cl::list<std::string> chips(
      "mirage-chips", cl::CommaSeparated,
      cl::desc("Target chips (default: sm_80 and sm_90a; sm_90a only for "
               "programs with thread-block clusters)"));
  static cl::list<std::string> functions(
      "mirage-bundle-functions", cl::CommaSeparated,
      cl::desc("Functions to bundle (default: every function of Mirage "
               "kernel ops)"));
  static cl::opt<std::string> referencePath(
      "mirage-bundle-reference",
      cl::desc("File with the kernel-graph programs the functions compute "
               "(recorded in plan.json for testing)"),
      cl::value_desc("file"));
  static cl::opt<bool> tensorCores(
      "mirage-tensor-cores", cl::init(true),
      cl::desc("Run f16 matmuls on tensor cores where they fit (default "
               "true; false: every matmul on the SIMT path)"));
  static cl::opt<bool> wgmma(
      "mirage-wgmma", cl::init(false),
      cl::desc("Run the f16 matmuls of the sm_90a kernels on wgmma where "
               "they fit (default false: mma.sync, measured faster on the "
               "benchmark µGraphs)"));
  static cl::opt<bool> tma(
      "mirage-tma", cl::init(true),
      cl::desc("Copy the staged tiles of the sm_90a kernels with the TMA "
               "unit (cp.async.bulk.tensor completing on mbarriers; default "
               "true; false: cp.async)"));
  static cl::opt<int64_t> stages(
      "mirage-stages", cl::init(mlir::mirage::kDefaultPipelineStages),
      cl::desc("Software-pipelining stages of loop-varying tiles (cp.async, "
               "or TMA on sm_90a; default 4; below 2: none)"));
  cl::ParseCommandLineOptions(argc, argv,
                              "Mirage bundle writer (mirage-translate "
                              "--mirage-to-bundle INPUT -o DIR)\n");

  DialectRegistry registry;
  mlir::registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  mirage::registerAllDialects(registry);
  MLIRContext context(registry);
  context.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);

  ParserConfig config(&context);
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(input, sourceMgr, config);
  if (!module)
    return 1;
  OwningOpRef<ModuleOp> reference;
  llvm::SourceMgr referenceSourceMgr;
  if (!referencePath.empty()) {
    reference =
        parseSourceFile<ModuleOp>(referencePath, referenceSourceMgr, config);
    if (!reference)
      return 1;
  }
  BundleOptions options;
  options.chips.assign(chips.begin(), chips.end());
  options.functions.assign(functions.begin(), functions.end());
  options.reference = reference ? *reference : ModuleOp();
  options.tensorCores = tensorCores;
  options.wgmma = wgmma;
  options.tma = tma;
  options.stages = stages;
  return failed(writeBundle(*module, output, options)) ? 1 : 0;
}
