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

/// The matmul whose library call also computes `add`, when kernel-level
/// matmuls run in the GEMM library: an operand of `add` made by a `matmul`
/// of the same block whose only use is `add`, where both operands and the
/// result have one type (no broadcast); of two such, the later. Null when
/// there is none. `mirage-kernel-expand-to-blocks{library-matmuls=true}`
/// leaves such an `add` unexpanded and `convert-mirage-kernel-to-gpu` makes
/// the pair one `library_matmul ... plus` call.
MatmulOp getLibraryEpilogueMatmul(AddOp add);

} // namespace mlir::mirage::kernel

#endif // MIRAGE_DIALECT_KERNEL_IR_KERNELOPS_H
