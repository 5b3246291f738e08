//===- ThreadDialect.cpp - mirage_thread dialect and operations -----------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Dialect/Thread/IR/ThreadDialect.h"

#include "Mirage/Dialect/Thread/IR/ThreadOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::mirage::thread;

#include "Mirage/Dialect/Thread/IR/ThreadDialect.cpp.inc"

void MirageThreadDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "Mirage/Dialect/Thread/IR/ThreadOps.cpp.inc"
      >();
}

#define GET_OP_CLASSES
#include "Mirage/Dialect/Thread/IR/ThreadOps.cpp.inc"
