//===- ThreadGraphs.h - Thread-graph formation ------------------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_TRANSFORMS_THREADGRAPHS_H
#define MIRAGE_TRANSFORMS_THREADGRAPHS_H

#include "mlir/IR/Operation.h"

namespace mlir::mirage {

/// Fuses the elementwise chains of every graph_def under `root` into
/// thread graphs (mirage-form-thread-graphs); returns how many it formed.
/// A graph_def whose loop phases do not analyse is left alone.
int64_t formThreadGraphs(Operation *root);

} // namespace mlir::mirage

#endif // MIRAGE_TRANSFORMS_THREADGRAPHS_H
