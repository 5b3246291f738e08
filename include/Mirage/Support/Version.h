//===- Version.h - The compiler version -------------------------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SUPPORT_VERSION_H
#define MIRAGE_SUPPORT_VERSION_H

#include "llvm/ADT/StringRef.h"

namespace mlir::mirage {

/// The compiler version: the project version and, when built from a git
/// checkout, its commit ("0.6.0+g1a2b3c4d5e6f"). Tuning results are kept
/// per compiler version: another code generator may choose differently.
llvm::StringRef getCompilerVersion();

} // namespace mlir::mirage

#endif // MIRAGE_SUPPORT_VERSION_H
