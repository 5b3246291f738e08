//===- BlockAttrs.h - mirage_block attributes -------------------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_DIALECT_BLOCK_IR_BLOCKATTRS_H
#define MIRAGE_DIALECT_BLOCK_IR_BLOCKATTRS_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"

#include "Mirage/Dialect/Block/IR/BlockEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "Mirage/Dialect/Block/IR/BlockAttrs.h.inc"

#endif // MIRAGE_DIALECT_BLOCK_IR_BLOCKATTRS_H
