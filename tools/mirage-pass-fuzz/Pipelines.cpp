//===- Pipelines.cpp - The pass pipelines the fuzzer runs -----------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Pipelines.h"

#include "Mirage/InitAllDialects.h"
#include "Mirage/InitAllPasses.h"
#include "Mirage/Target/Bundle.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace mlir::mirage;
using namespace mlir::mirage::fuzz;

namespace {

constexpr Pipeline kPipelines[] = {Pipeline::Superoptimize,
                                   Pipeline::CheckEquivalence, Pipeline::ToPTX,
                                   Pipeline::Bundle};

/// The pipeline's textual form, for the pass manager; empty for the bundle
/// writer, which is no pass.
std::string getPassPipeline(Pipeline pipeline, const Budget &budget) {
  switch (pipeline) {
  case Pipeline::Superoptimize:
    return llvm::formatv(
        "mirage-superoptimize{{time-limit={0} use-tuning-db=false}",
        budget.searchSeconds);
  case Pipeline::CheckEquivalence:
    return llvm::formatv(
        "mirage-check-equivalence{{time-limit={0} max-memory={1}}",
        budget.checkSeconds, budget.checkBytes);
  case Pipeline::ToPTX:
    return "mirage-to-ptx-pipeline{chip=sm_90a}";
  case Pipeline::Bundle:
    return "";
  }
  llvm_unreachable("unknown pipeline");
}

/// The dialects and passes of mirage-opt and mirage-bundle.
DialectRegistry &getRegistry() {
  static DialectRegistry *registry = [] {
    mlir::mirage::registerAllPasses();
    auto *registry = new DialectRegistry();
    mlir::registerAllDialects(*registry);
    registerAllExtensions(*registry);
    registerAllToLLVMIRTranslations(*registry);
    mirage::registerAllDialects(*registry);
    return registry;
  }();
  return *registry;
}

/// Writes a bundle of `module` into a fresh temporary directory, removed
/// afterwards.
LogicalResult writeTemporaryBundle(ModuleOp module) {
  SmallString<128> directory;
  if (llvm::sys::fs::createUniqueDirectory("mirage-pass-fuzz", directory)) {
    emitError(module.getLoc(), "cannot create a temporary directory");
    return failure();
  }
  LogicalResult written = writeBundle(module, directory, BundleOptions());
  llvm::sys::fs::remove_directories(directory);
  return written;
}

/// Parses `text` in `context`; null when it does not parse.
OwningOpRef<ModuleOp> parse(llvm::StringRef text, MLIRContext &context) {
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(text, "fuzz.mlir"), llvm::SMLoc());
  ParserConfig config(&context);
  return parseSourceFile<ModuleOp>(sourceMgr, config);
}

/// Adds the first function of `reference`, renamed and marked as
/// mirage-check-equivalence's reference, to `module` when `module` holds one
/// function.
void addReference(ModuleOp module, llvm::StringRef reference,
                  MLIRContext &context) {
  auto functions = llvm::to_vector(module.getOps<func::FuncOp>());
  if (functions.size() != 1 || reference.empty())
    return;
  OwningOpRef<ModuleOp> parsed = parse(reference, context);
  if (!parsed)
    return;
  auto ops = parsed->getOps<func::FuncOp>();
  if (ops.empty())
    return;
  func::FuncOp copy = (*ops.begin()).clone();
  copy.setSymName((functions.front().getSymName() + "_reference").str());
  copy->setAttr("mirage.reference", UnitAttr::get(&context));
  module.getBody()->push_front(copy);
}

} // namespace

llvm::ArrayRef<Pipeline> mlir::mirage::fuzz::getPipelines() {
  return kPipelines;
}

llvm::StringRef mlir::mirage::fuzz::getPipelineName(Pipeline pipeline) {
  switch (pipeline) {
  case Pipeline::Superoptimize:
    return "superoptimize";
  case Pipeline::CheckEquivalence:
    return "check-equivalence";
  case Pipeline::ToPTX:
    return "to-ptx";
  case Pipeline::Bundle:
    return "bundle";
  }
  llvm_unreachable("unknown pipeline");
}

std::optional<Pipeline>
mlir::mirage::fuzz::lookupPipeline(llvm::StringRef name) {
  for (Pipeline pipeline : kPipelines)
    if (getPipelineName(pipeline) == name)
      return pipeline;
  return std::nullopt;
}

Outcome mlir::mirage::fuzz::runPipeline(Pipeline pipeline,
                                        llvm::StringRef program,
                                        const Budget &budget,
                                        llvm::StringRef reference) {
  MLIRContext context(getRegistry(), MLIRContext::Threading::DISABLED);
  int errors = 0;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error)
      ++errors;
    return success();
  });
  OwningOpRef<ModuleOp> module = parse(program, context);
  LogicalResult result = success(static_cast<bool>(module));
  if (module && pipeline == Pipeline::CheckEquivalence)
    addReference(*module, reference, context);
  if (module && pipeline == Pipeline::Bundle) {
    result = writeTemporaryBundle(*module);
  } else if (module) {
    PassManager pm(&context, ModuleOp::getOperationName());
    result = parsePassPipeline(getPassPipeline(pipeline, budget), pm);
    if (succeeded(result))
      result = pm.run(*module);
  }
  if (succeeded(result))
    return Outcome::Succeeded;
  return errors != 0 ? Outcome::Diagnosed : Outcome::FailedSilently;
}
