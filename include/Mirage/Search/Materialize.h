//===- Materialize.h - Compact programs back to IR --------------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SEARCH_MATERIALIZE_H
#define MIRAGE_SEARCH_MATERIALIZE_H

#include "Mirage/Semantics/Program.h"
#include "mlir/IR/Builders.h"

namespace mlir::mirage::search {

/// Builds the kernel graph of `program` at the builder's insertion point on
/// `inputs` (its kernel-graph inputs) and returns its outputs: the inverse
/// of sem::buildProgram for what the search produces (graph_defs of loads,
/// elementwise ops, matmuls, reductions, accumulators and saves, with
/// `threads` threads per block) and for thread graphs, which come back as
/// their block-level elementwise ops (mirage-form-thread-graphs fuses them
/// again). Fails with a diagnostic at `loc` for anything else.
FailureOr<SmallVector<Value>>
materializeProgram(const sem::Program &program, OpBuilder &builder,
                   Location loc, ValueRange inputs, int32_t threads);

} // namespace mlir::mirage::search

#endif // MIRAGE_SEARCH_MATERIALIZE_H
