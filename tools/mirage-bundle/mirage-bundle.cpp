//===- mirage-bundle.cpp - The Mirage bundle writer -----------------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// `mirage-bundle INPUT -o DIR` compiles the kernel-graph functions of INPUT
// for each target chip and writes the bundle the runtime loads: one PTX file
// per chip and plan.json (docs/Runtime.md). A bundle is a directory, which
// mlir-translate's one-output-stream translations cannot write, hence a tool
// of its own.
//
//===----------------------------------------------------------------------===//

#include "Mirage/Conversion/CodegenOptions.h"
#include "Mirage/InitAllDialects.h"
#include "Mirage/Support/LargeStack.h"
#include "Mirage/Target/Bundle.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace mlir::mirage;
namespace cl = llvm::cl;

static cl::OptionCategory bundleCategory("Bundle options");
static cl::OptionCategory codegenCategory("Code generation options");

static cl::opt<std::string> inputPath(cl::Positional, cl::desc("<input file>"),
                                      cl::init("-"), cl::cat(bundleCategory));
static cl::opt<std::string>
    outputDirectory("o", cl::desc("Directory to write the bundle into"),
                    cl::Required, cl::value_desc("directory"),
                    cl::cat(bundleCategory));
static cl::list<std::string>
    chips("chips", cl::CommaSeparated,
          cl::desc("Target chips (default: every chip the program can run "
                   "on; programs with thread-block clusters only run on "
                   "chips with clusters)"),
          cl::cat(bundleCategory));
static cl::list<std::string>
    functions("functions", cl::CommaSeparated,
              cl::desc("Functions to bundle (default: every function of "
                       "Mirage kernel ops)"),
              cl::cat(bundleCategory));
static cl::opt<std::string> referencePath(
    "reference",
    cl::desc("File with the kernel-graph programs the functions compute "
             "(recorded in plan.json for testing)"),
    cl::value_desc("file"), cl::cat(bundleCategory));

namespace {
/// The code generation flags: one per option of CodegenOptions.def, but for
/// those a bundle sets per chip.
struct CodegenFlags {
#define MIRAGE_CODEGEN_CHIP_OPTION(TYPE, NAME, FLAG, DEFAULT, DESCRIPTION)
#define MIRAGE_CODEGEN_OPTION(TYPE, NAME, FLAG, DEFAULT, DESCRIPTION)          \
  cl::opt<TYPE> NAME{FLAG, cl::desc(DESCRIPTION), cl::init(DEFAULT),           \
                     cl::cat(codegenCategory)};
#include "Mirage/Conversion/CodegenOptions.def"

  /// The flags' values.
  CodegenOptions get() const {
    CodegenOptions options;
#define MIRAGE_CODEGEN_CHIP_OPTION(TYPE, NAME, FLAG, DEFAULT, DESCRIPTION)
#define MIRAGE_CODEGEN_OPTION(TYPE, NAME, FLAG, DEFAULT, DESCRIPTION)          \
  options.NAME = NAME;
#include "Mirage/Conversion/CodegenOptions.def"
    return options;
  }
};
} // namespace

static CodegenFlags codegenFlags;

/// Parses the input (and the reference file, when given) and writes the
/// bundle; returns the exit status.
static int writeBundleFromFlags() {
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
      parseSourceFile<ModuleOp>(inputPath, sourceMgr, config);
  if (!module)
    return 1;
  // A parser reads the main file of its SourceMgr: one per file.
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
  options.codegen = codegenFlags.get();
  return failed(writeBundle(*module, outputDirectory, options)) ? 1 : 0;
}

int main(int argc, char **argv) {
  cl::HideUnrelatedOptions({&bundleCategory, &codegenCategory});
  cl::ParseCommandLineOptions(
      argc, argv,
      "Mirage bundle writer: compiles kernel graphs into PTX for each chip "
      "and a launch plan (mirage-bundle INPUT -o DIR)\n");
  return runWithLargeStack(writeBundleFromFlags);
}
