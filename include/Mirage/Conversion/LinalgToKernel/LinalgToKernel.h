//===- LinalgToKernel.h - linalg to mirage_kernel patterns ------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_CONVERSION_LINALGTOKERNEL_LINALGTOKERNEL_H
#define MIRAGE_CONVERSION_LINALGTOKERNEL_LINALGTOKERNEL_H

#include "mlir/IR/PatternMatch.h"

namespace mlir::mirage {

/// Adds the patterns of `convert-linalg-to-mirage-kernel`: one that rewrites
/// every linalg op on tensors a kernel graph can express into mirage_kernel
/// ops (docs/Embedding.md), one that makes the kernel ops of an RMSNorm
/// without eps one `rms_norm`, and the tensor dialect's canonicalizations of
/// the reshapes that connect linalg's and the kernel ops' ranks.
void populateLinalgToMirageKernelPatterns(RewritePatternSet &patterns);

/// Emits, on every linalg op left in `root`, a remark (an error when
/// `strict`) naming it and why the kernel dialect cannot express it; fails
/// when `strict` and there is one.
LogicalResult reportUnconvertedLinalgOps(Operation *root, bool strict);

} // namespace mlir::mirage

#endif // MIRAGE_CONVERSION_LINALGTOKERNEL_LINALGTOKERNEL_H
