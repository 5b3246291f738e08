//===- BlockTypes.h - mirage_block types ------------------------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_DIALECT_BLOCK_IR_BLOCKTYPES_H
#define MIRAGE_DIALECT_BLOCK_IR_BLOCKTYPES_H

#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "mlir/IR/Types.h"

#define GET_TYPEDEF_CLASSES
#include "Mirage/Dialect/Block/IR/BlockTypes.h.inc"

#endif // MIRAGE_DIALECT_BLOCK_IR_BLOCKTYPES_H
