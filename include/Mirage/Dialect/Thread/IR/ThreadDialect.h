//===- ThreadDialect.h - mirage_thread dialect ------------------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_DIALECT_THREAD_IR_THREADDIALECT_H
#define MIRAGE_DIALECT_THREAD_IR_THREADDIALECT_H

#include "mlir/IR/Dialect.h"

#include "Mirage/Dialect/Thread/IR/ThreadDialect.h.inc"

#endif // MIRAGE_DIALECT_THREAD_IR_THREADDIALECT_H
