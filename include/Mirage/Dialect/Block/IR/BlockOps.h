//===- BlockOps.h - mirage_block operations ---------------------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_DIALECT_BLOCK_IR_BLOCKOPS_H
#define MIRAGE_DIALECT_BLOCK_IR_BLOCKOPS_H

#include "Mirage/Dialect/Block/IR/BlockAttrs.h"
#include "Mirage/Dialect/Block/IR/BlockDialect.h"
#include "Mirage/Dialect/Block/IR/BlockTypes.h"
#include "Mirage/Dialect/Block/IR/LoopPhase.h"
#include "Mirage/Dialect/Common/ElementwiseOpInterface.h"
#include "Mirage/Dialect/Common/ShapeRules.h"
#include "Mirage/Dialect/Common/Traits.h"
#include "Mirage/Dialect/Kernel/IR/KernelOps.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "Mirage/Dialect/Block/IR/BlockOps.h.inc"

namespace mlir::mirage::block {

/// The shape of the tile that `input_loader` cuts from a tensor of shape
/// `tensorShape` in a grid `grid` with `forloopRange` iterations
/// (docs/LanguageReference.md, "Maps"). Emits a diagnostic and fails when a
/// map is out of range, maps one
/// dimension twice, or a grid or loop size does not divide its dimension.
FailureOr<SmallVector<int64_t>>
computeLoadedTileShape(EmitErrorFn emitError, ArrayRef<int64_t> tensorShape,
                       GridMapAttr imap, ArrayRef<int32_t> grid, int64_t fmap,
                       int64_t forloopRange);

/// The shape of the kernel tensor that `output_saver` assembles from the
/// tiles of shape `tileShape` of all blocks of `grid`. Every grid axis of
/// size > 1 must be mapped to a distinct dimension.
FailureOr<SmallVector<int64_t>>
computeSavedTensorShape(EmitErrorFn emitError, ArrayRef<int64_t> tileShape,
                        GridMapAttr omap, ArrayRef<int32_t> grid);

/// A block reduction's dimension and the size it reduces to: a
/// `reduction`'s own, or a `reduction_max`'s dimension and 1 (a maximum is
/// planned and lowered as a reduction to size 1, combined by maximum).
struct ReductionShape {
  int64_t dim;
  int64_t size;
};
/// The ReductionShape of `op`, a `reduction` or a `reduction_max`.
ReductionShape getReductionShape(Operation *op);

} // namespace mlir::mirage::block

#endif // MIRAGE_DIALECT_BLOCK_IR_BLOCKOPS_H
