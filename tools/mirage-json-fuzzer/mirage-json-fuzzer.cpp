//===- mirage-json-fuzzer.cpp - libFuzzer target for the µGraph importer -===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Feeds arbitrary bytes to the µGraph JSON importer (docs/Fuzzing.md). Every
// input must either be rejected with a diagnostic or imported; an imported
// module must export, and the exported text must import again (a failure of
// either is a real bug and aborts). Crashes, sanitizer reports and timeouts
// are what the fuzzer looks for.
//
//===----------------------------------------------------------------------===//

#include "Mirage/InitAllDialects.h"
#include "Mirage/Target/MirageJSON.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>
#include <string>

using namespace mlir;

namespace {

/// One context for the whole run, with the dialects of mirage-translate's
/// registration (TranslateRegistration.cpp) loaded. Threading is off so
/// that a run is deterministic and no thread pool outlives an input.
MLIRContext &getContext() {
  static MLIRContext *context = [] {
    DialectRegistry registry;
    mirage::registerAllDialects(registry);
    registry.insert<func::FuncDialect>();
    auto *ctx = new MLIRContext(registry, MLIRContext::Threading::DISABLED);
    ctx->loadAllAvailableDialects();
    // Malformed inputs are expected: swallow their diagnostics.
    ctx->getDiagEngine().registerHandler(
        [](Diagnostic &) { return success(); });
    return ctx;
  }();
  return *context;
}

OwningOpRef<ModuleOp> import(StringRef text, StringRef name) {
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(text, name),
                               llvm::SMLoc());
  return mirage::importMirageJSON(sourceMgr, &getContext(), "fuzz");
}

[[noreturn]] void fail(StringRef what, StringRef text) {
  llvm::errs() << "mirage-json-fuzzer: " << what << "\n";
  if (!text.empty())
    llvm::errs() << "exported text:\n" << text << "\n";
  std::abort();
}

} // namespace

/// Only the project's code is built with ASan; libMLIR.so is not. LLVM's
/// BumpPtrAllocator poisons its free slab space when the code that inlines it
/// is instrumented (llvm/Support/Allocator.h), and the uninstrumented copies
/// inlined into libMLIR.so then write into it without unpoisoning: a false
/// "use-after-poison" in the first StringAttr that shares a slab with one of
/// our attributes. Ignoring manual poisoning keeps every other ASan check.
extern "C" const char *__asan_default_options() {
  return "allow_user_poisoning=0";
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  StringRef input(reinterpret_cast<const char *>(data), size);
  OwningOpRef<ModuleOp> module = import(input, "fuzz.json");
  if (!module)
    return 0;

  // Round trip: whatever the importer accepts, the exporter must write, and
  // the importer must accept what the exporter wrote.
  std::string exported;
  llvm::raw_string_ostream os(exported);
  if (failed(mirage::exportMirageJSON(*module, os)))
    fail("an imported module does not export", "");
  OwningOpRef<ModuleOp> reimported = import(exported, "fuzz-roundtrip.json");
  if (!reimported)
    fail("the export of an imported module does not import again", exported);

  // The exporter is deterministic on its own output: export(import(E)) == E.
  std::string again;
  llvm::raw_string_ostream os2(again);
  if (failed(mirage::exportMirageJSON(*reimported, os2)))
    fail("a re-imported module does not export", exported);
  if (again != exported)
    fail("export -> import -> export changes the text", exported);
  return 0;
}
