//===- TestPrograms.h - Programs for the semantics unit tests ---*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_UNITTESTS_SEMANTICS_TESTPROGRAMS_H
#define MIRAGE_UNITTESTS_SEMANTICS_TESTPROGRAMS_H

#include "Mirage/Semantics/Program.h"
#include "mlir/IR/MLIRContext.h"

#include <optional>

namespace mlir::mirage::sem::test {

/// Parses MLIR text holding one kernel-graph function into a program, or
/// nullopt when it does not parse, verify or import.
std::optional<Program> parseProgram(MLIRContext &context, StringRef source);

/// A context with the Mirage dialects and func loaded.
void loadDialects(MLIRContext &context);

} // namespace mlir::mirage::sem::test

#endif // MIRAGE_UNITTESTS_SEMANTICS_TESTPROGRAMS_H
