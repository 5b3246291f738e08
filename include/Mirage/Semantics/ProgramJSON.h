//===- ProgramJSON.h - Programs to and from JSON ----------------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The one JSON form of a program (docs/Runtime.md, "Programs"): typed
// values, inputs, outputs and ops, graph_def and thread_graph bodies nested
// under `body`. A bundle's `reference` and `program` and the candidates of a
// search checkpoint are written here. Reading checks the whole structure
// (every index, every definition before its use, op names, attributes,
// shapes, bodies), so a damaged file is reported, not trusted.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SEMANTICS_PROGRAMJSON_H
#define MIRAGE_SEMANTICS_PROGRAMJSON_H

#include "Mirage/Semantics/Program.h"
#include "llvm/Support/JSON.h"

#include <string>

namespace mlir::mirage::sem {

/// `type` as {"shape": [...], "dtype": "f16" | "bf16" | "f32"}.
llvm::json::Object toJSON(const ValueType &type);

/// `program` as {"values", "inputs", "outputs", "ops"}, its kernel graph,
/// with the bodies nested in their ops.
llvm::json::Value toJSON(const Program &program);

/// Reads a program of that form; false, with the reason at `path` (the JSON
/// path of the first fault), for anything else.
bool fromJSON(const llvm::json::Value &json, Program &program,
              llvm::json::Path path);

/// The key of `program` among tuning results: the SHA-256 of its JSON form
/// (ops, shapes, dtypes; no names), as 64 lowercase hex digits.
std::string getProgramKey(const Program &program);

} // namespace mlir::mirage::sem

#endif // MIRAGE_SEMANTICS_PROGRAMJSON_H
