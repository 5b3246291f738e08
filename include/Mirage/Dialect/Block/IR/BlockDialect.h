//===- BlockDialect.h - mirage_block dialect --------------------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_DIALECT_BLOCK_IR_BLOCKDIALECT_H
#define MIRAGE_DIALECT_BLOCK_IR_BLOCKDIALECT_H

#include "mlir/IR/Dialect.h"

#include "Mirage/Dialect/Block/IR/BlockDialect.h.inc"

#endif // MIRAGE_DIALECT_BLOCK_IR_BLOCKDIALECT_H
