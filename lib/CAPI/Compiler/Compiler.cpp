//===- Compiler.cpp - The compiler behind a string interface --------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage-c/Compiler.h"

#include "Mirage/InitAllDialects.h"
#include "Mirage/InitAllPasses.h"
#include "Mirage/Semantics/Import.h"
#include "Mirage/Semantics/ProgramJSON.h"
#include "Mirage/Support/LargeStack.h"
#include "Mirage/Support/Version.h"
#include "Mirage/Target/Bundle.h"
#include "Mirage/Target/MirageJSON.h"
#include "Mirage/Target/Triton.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SourceMgr.h"

#include <cstdlib>
#include <cstring>
#include <mutex>

using namespace mlir;

namespace {

/// A copy of `text` that mirageCompilerResultDestroy frees.
char *copyString(llvm::StringRef text) {
  char *copy = static_cast<char *>(std::malloc(text.size() + 1));
  std::memcpy(copy, text.data(), text.size());
  copy[text.size()] = '\0';
  return copy;
}

/// The dialects, extensions and translations every call may need: the
/// pipelines lower to NVVM and the bundle writer translates to LLVM IR.
const DialectRegistry &getRegistry() {
  static const DialectRegistry *registry = [] {
    auto *r = new DialectRegistry();
    registerAllDialects(*r);
    registerAllExtensions(*r);
    registerAllToLLVMIRTranslations(*r);
    mirage::registerAllDialects(*r);
    return r;
  }();
  return *registry;
}

/// One call: a context of its own, `source` parsed into `module`, and every
/// diagnostic written to `diagnostics` in the source's coordinates.
class Call {
public:
  Call(const char *source, const char *name)
      : context(getRegistry()), stream(diagnostics),
        handler(sourceMgr, &context, stream) {
    context.printOpOnDiagnostic(false);
    sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(source ? source : "",
                                             name && *name ? name : "<input>"),
        llvm::SMLoc());
  }

  /// Parses (and verifies) the module; false on failure, reported.
  bool parse() {
    ParserConfig config(&context);
    module = parseSourceFile<ModuleOp>(sourceMgr, config);
    return static_cast<bool>(module);
  }

  /// The result of the call: `output` when it succeeded.
  MirageCompilerResult finish(bool succeeded, llvm::StringRef output = {}) {
    return {succeeded ? 1 : 0, copyString(succeeded ? output : ""),
            copyString(diagnostics)};
  }

  /// A successful result whose output is `module`, printed.
  MirageCompilerResult finish(ModuleOp module) {
    std::string printed;
    llvm::raw_string_ostream os(printed);
    module->print(os);
    return finish(true, printed);
  }

  MLIRContext context;
  llvm::SourceMgr sourceMgr;
  std::string diagnostics;
  llvm::raw_string_ostream stream;
  SourceMgrDiagnosticHandler handler;
  OwningOpRef<ModuleOp> module;
};

/// Runs `body` on a large stack and returns its result.
MirageCompilerResult
onLargeStack(llvm::function_ref<MirageCompilerResult()> body) {
  MirageCompilerResult result = {0, nullptr, nullptr};
  mirage::runWithLargeStack([&] {
    result = body();
    return 0;
  });
  return result;
}

} // namespace

const char *mirageCompilerVersion(void) {
  static const std::string version = mirage::getCompilerVersion().str();
  return version.c_str();
}

MirageCompilerResult mirageCompilerRunPipeline(const char *source,
                                               const char *name,
                                               const char *pipeline) {
  static std::once_flag registered;
  std::call_once(registered, [] { mirage::registerAllPasses(); });
  return onLargeStack([&] {
    Call call(source, name);
    if (!call.parse())
      return call.finish(false);
    PassManager pm(&call.context);
    std::string error;
    llvm::raw_string_ostream errorStream(error);
    if (pipeline && *pipeline &&
        failed(parsePassPipeline(pipeline, pm, errorStream))) {
      call.stream << "error: invalid pass pipeline '" << pipeline
                  << "': " << error << "\n";
      return call.finish(false);
    }
    if (failed(pm.run(*call.module)))
      return call.finish(false);
    return call.finish(*call.module);
  });
}

MirageCompilerResult mirageCompilerWriteBundle(const char *source,
                                               const char *name,
                                               const char *directory,
                                               const char *chips) {
  return onLargeStack([&] {
    Call call(source, name);
    if (!call.parse())
      return call.finish(false);
    if (!directory || !*directory) {
      call.stream << "error: no bundle directory given\n";
      return call.finish(false);
    }
    mirage::BundleOptions options;
    llvm::SmallVector<llvm::StringRef> names;
    llvm::SplitString(chips ? chips : "", names, ",");
    for (llvm::StringRef chip : names)
      options.chips.push_back(chip.trim().str());
    return call.finish(
        succeeded(mirage::writeBundle(*call.module, directory, options)));
  });
}

MirageCompilerResult mirageCompilerDescribeFunction(const char *source,
                                                    const char *name,
                                                    const char *function) {
  return onLargeStack([&] {
    Call call(source, name);
    if (!call.parse())
      return call.finish(false);
    llvm::StringRef wanted = function ? function : "";
    SmallVector<func::FuncOp> functions;
    for (auto func : call.module->getOps<func::FuncOp>())
      if (!func.isExternal() && (wanted.empty() || func.getName() == wanted))
        functions.push_back(func);
    if (functions.size() != 1) {
      call.stream << "error: "
                  << (wanted.empty()
                          ? "the module holds " +
                                std::to_string(functions.size()) +
                                " functions with a body; name one"
                          : "no function @" + wanted.str() + " with a body")
                  << "\n";
      return call.finish(false);
    }
    FailureOr<mirage::sem::Program> program =
        mirage::sem::buildProgram(functions.front());
    if (failed(program))
      return call.finish(false);
    std::string json;
    llvm::raw_string_ostream os(json);
    os << mirage::sem::toJSON(*program);
    return call.finish(true, json);
  });
}

MirageCompilerResult mirageCompilerImportMirageJSON(const char *source,
                                                    const char *name,
                                                    const char *prefix) {
  return onLargeStack([&] {
    Call call(source, name);
    OwningOpRef<ModuleOp> module = mirage::importMirageJSON(
        call.sourceMgr, &call.context, prefix && *prefix ? prefix : "graph");
    if (!module)
      return call.finish(false);
    return call.finish(*module);
  });
}

MirageCompilerResult mirageCompilerExportMirageJSON(const char *source,
                                                    const char *name) {
  return onLargeStack([&] {
    Call call(source, name);
    if (!call.parse())
      return call.finish(false);
    std::string json;
    llvm::raw_string_ostream os(json);
    if (failed(mirage::exportMirageJSON(*call.module, os)))
      return call.finish(false);
    return call.finish(true, json);
  });
}

/// The Triton module of `source`, refusing unsupported functions or
/// (`skipUnsupported`) leaving them out.
static MirageCompilerResult
translateToTriton(const char *source, const char *name, bool skipUnsupported) {
  return onLargeStack([&] {
    Call call(source, name);
    if (!call.parse())
      return call.finish(false);
    std::string module;
    llvm::raw_string_ostream os(module);
    if (failed(mirage::translateToTriton(*call.module, os, skipUnsupported)))
      return call.finish(false);
    return call.finish(true, module);
  });
}

MirageCompilerResult mirageCompilerTranslateToTriton(const char *source,
                                                     const char *name) {
  return translateToTriton(source, name, /*skipUnsupported=*/false);
}

MirageCompilerResult
mirageCompilerTranslateSupportedToTriton(const char *source, const char *name) {
  return translateToTriton(source, name, /*skipUnsupported=*/true);
}

void mirageCompilerResultDestroy(MirageCompilerResult *result) {
  if (!result)
    return;
  std::free(result->output);
  std::free(result->diagnostics);
  *result = {0, nullptr, nullptr};
}
