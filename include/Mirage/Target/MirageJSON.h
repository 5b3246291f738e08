//===- MirageJSON.h - The public implementation's µGraph JSON ---*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The public Mirage implementation saves the µGraphs its search verified as
// JSON (docs/Mugraphs.md). These translations import
// such a file as one func.func per graph, and export kernel graphs that fit
// the format back.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_TARGET_MIRAGEJSON_H
#define MIRAGE_TARGET_MIRAGEJSON_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/SourceMgr.h"

namespace mlir::mirage {

/// Imports the µGraph file in `sourceMgr`'s main buffer. Graph `i` becomes
/// `func.func @<prefix>_<i>`. Emits a diagnostic that names the graph, op and
/// problem, and returns null, on any malformed input.
OwningOpRef<ModuleOp> importMirageJSON(llvm::SourceMgr &sourceMgr,
                                       MLIRContext *context, StringRef prefix);

/// Writes the kernel-graph functions of `module` as a µGraph file (one graph
/// per function). Fails with a diagnostic on an op the format cannot express.
LogicalResult exportMirageJSON(ModuleOp module, raw_ostream &output);

/// Registers `--import-mirage-json` and `--export-mirage-json`.
void registerMirageJSONTranslations();

} // namespace mlir::mirage

#endif // MIRAGE_TARGET_MIRAGEJSON_H
