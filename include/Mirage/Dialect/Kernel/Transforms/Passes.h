//===- Passes.h - mirage_kernel passes --------------------------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_DIALECT_KERNEL_TRANSFORMS_PASSES_H
#define MIRAGE_DIALECT_KERNEL_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::mirage::block {
class MirageBlockDialect;
} // namespace mlir::mirage::block

namespace mlir::mirage::kernel {

#define GEN_PASS_DECL
#include "Mirage/Dialect/Kernel/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Mirage/Dialect/Kernel/Transforms/Passes.h.inc"

} // namespace mlir::mirage::kernel

#endif // MIRAGE_DIALECT_KERNEL_TRANSFORMS_PASSES_H
