//===- ThreadOps.h - mirage_thread operations -------------------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_DIALECT_THREAD_IR_THREADOPS_H
#define MIRAGE_DIALECT_THREAD_IR_THREADOPS_H

#include "Mirage/Dialect/Block/IR/BlockOps.h"
#include "Mirage/Dialect/Common/ElementwiseOpInterface.h"
#include "Mirage/Dialect/Thread/IR/ThreadDialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "Mirage/Dialect/Thread/IR/ThreadOps.h.inc"

#endif // MIRAGE_DIALECT_THREAD_IR_THREADOPS_H
