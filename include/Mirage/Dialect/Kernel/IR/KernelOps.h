//===- KernelOps.h - mirage_kernel operations -------------------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_DIALECT_KERNEL_IR_KERNELOPS_H
#define MIRAGE_DIALECT_KERNEL_IR_KERNELOPS_H

#include "Mirage/Dialect/Common/ElementwiseOpInterface.h"
#include "Mirage/Dialect/Common/Traits.h"
#include "Mirage/Dialect/Kernel/IR/KernelDialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/RegionKindInterface.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "Mirage/Dialect/Kernel/IR/KernelOps.h.inc"

namespace mlir::mirage::kernel {

/// True for a predefined kernel op (`matmul`, `exp`, `rms_norm`, ...): a
/// `mirage_kernel` op other than `graph_def`, `launch` and `library_matmul`.
bool isPredefinedKernelOp(Operation *op);

/// True when `root` or an op nested in it belongs to `mirage_kernel`.
bool containsKernelOps(Operation *root);

} // namespace mlir::mirage::kernel

#endif // MIRAGE_DIALECT_KERNEL_IR_KERNELOPS_H
