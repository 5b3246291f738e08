//===- Triton.h - Triton Python modules from µGraphs ------------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Translates the kernel-graph functions of a module into one readable Triton
// Python module: a `@triton.jit` kernel per `graph_def` (more than one when
// the block graph holds cluster collectives), torch calls for the other
// kernel ops, and a host function per `func.func` that takes and returns
// torch tensors (docs/Triton.md).
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_TARGET_TRITON_H
#define MIRAGE_TARGET_TRITON_H

#include "mlir/IR/BuiltinOps.h"

namespace mlir::mirage {

/// Writes the Triton Python module of every function of `module` to
/// `output`. Fails with a diagnostic naming the op on a construct the Triton
/// backend cannot express; nothing is written then.
/// Writes `module` as one Triton Python module (docs/Triton.md). A function
/// the backend does not support fails the translation with an error naming
/// the construct, or, with `skipUnsupported`, is left out with a warning
/// and listed in a comment of the module (its FUNCTIONS omits it).
LogicalResult translateToTriton(ModuleOp module, raw_ostream &output,
                                bool skipUnsupported = false);

/// Registers `--mirage-to-triton`.
void registerTritonTranslation();

} // namespace mlir::mirage

#endif // MIRAGE_TARGET_TRITON_H
