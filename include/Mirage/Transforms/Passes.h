//===- Passes.h - Mirage transformation passes ------------------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_TRANSFORMS_PASSES_H
#define MIRAGE_TRANSFORMS_PASSES_H

#include "Mirage/Dialect/Block/IR/BlockDialect.h"
#include "Mirage/Dialect/Thread/IR/ThreadDialect.h"
#include "Mirage/Semantics/Limits.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::mirage {

#define GEN_PASS_DECL
#include "Mirage/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Mirage/Transforms/Passes.h.inc"

} // namespace mlir::mirage

#endif // MIRAGE_TRANSFORMS_PASSES_H
