//===- ProgramJSON.h - Programs to and from JSON ----------------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A JSON form of sem::Program, field for field, used by the search's
// checkpoint files (docs/Search.md). Reading checks the program's structure:
// every index refers to an existing value or graph, every value is defined
// once before its uses (no cycles), nodes have their kind's operands and
// results, and bodies match their nodes; a damaged file is reported, not
// trusted. Types and shapes are not checked here.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SEMANTICS_PROGRAMJSON_H
#define MIRAGE_SEMANTICS_PROGRAMJSON_H

#include "Mirage/Semantics/Program.h"
#include "llvm/Support/JSON.h"

namespace mlir::mirage::sem {

/// `program` as a JSON object: {"graphs": [{"values", "nodes", "inputs",
/// "outputs", "grid", "cluster", "forloop"}]}.
llvm::json::Value toJSON(const Program &program);

/// Reads a program written by toJSON; false, with the reason at `path`, for
/// anything else.
bool fromJSON(const llvm::json::Value &json, Program &program,
              llvm::json::Path path);

} // namespace mlir::mirage::sem

#endif // MIRAGE_SEMANTICS_PROGRAMJSON_H
