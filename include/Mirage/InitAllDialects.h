//===- InitAllDialects.h - Register every Mirage dialect --------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_INITALLDIALECTS_H
#define MIRAGE_INITALLDIALECTS_H

#include "Mirage/Dialect/Block/IR/BlockDialect.h"
#include "Mirage/Dialect/Kernel/IR/KernelDialect.h"
#include "Mirage/Dialect/Thread/IR/ThreadDialect.h"
#include "mlir/IR/DialectRegistry.h"

namespace mlir::mirage {

/// Adds the three Mirage dialects to `registry`.
inline void registerAllDialects(DialectRegistry &registry) {
  registry.insert<kernel::MirageKernelDialect, block::MirageBlockDialect,
                  thread::MirageThreadDialect>();
}

} // namespace mlir::mirage

#endif // MIRAGE_INITALLDIALECTS_H
