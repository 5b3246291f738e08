//===- KernelDialect.cpp - mirage_kernel dialect --------------------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Dialect/Kernel/IR/KernelDialect.h"
#include "Mirage/Dialect/Kernel/IR/KernelOps.h"

using namespace mlir;
using namespace mlir::mirage::kernel;

#include "Mirage/Dialect/Kernel/IR/KernelDialect.cpp.inc"

void MirageKernelDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "Mirage/Dialect/Kernel/IR/KernelOps.cpp.inc"
      >();
}
