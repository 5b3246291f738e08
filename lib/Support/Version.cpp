//===- Version.cpp - The compiler version ---------------------------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Support/Version.h"

#include "Mirage/Support/Version.inc"

llvm::StringRef mlir::mirage::getCompilerVersion() {
  return MIRAGE_COMPILER_VERSION;
}
