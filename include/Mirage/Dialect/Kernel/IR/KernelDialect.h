//===- KernelDialect.h - mirage_kernel dialect ------------------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_DIALECT_KERNEL_IR_KERNELDIALECT_H
#define MIRAGE_DIALECT_KERNEL_IR_KERNELDIALECT_H

#include "mlir/IR/Dialect.h"

#include "Mirage/Dialect/Kernel/IR/KernelDialect.h.inc"

#endif // MIRAGE_DIALECT_KERNEL_IR_KERNELDIALECT_H
