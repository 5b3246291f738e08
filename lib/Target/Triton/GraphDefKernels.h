//===- GraphDefKernels.h - Triton kernels of one graph_def ------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_LIB_TARGET_TRITON_GRAPHDEFKERNELS_H
#define MIRAGE_LIB_TARGET_TRITON_GRAPHDEFKERNELS_H

#include "PythonWriter.h"

#include "Mirage/Dialect/Kernel/IR/KernelOps.h"

#include <array>
#include <string>

namespace mlir::mirage::triton {

/// How the host function runs the kernels of one graph_def.
struct GraphDefLaunch {
  /// The kernels, in launch order. Each takes the graph_def's inputs, then
  /// its results, then the scratch buffers, all as contiguous tensors.
  SmallVector<std::string> kernels;
  /// The shape of each scratch buffer (float32, allocated by the host): one
  /// per cluster collective, holding the collective's input tile of every
  /// block ([blocks, *tile]).
  SmallVector<SmallVector<int64_t>> scratchShapes;
  /// The launch grid (x, y, z) and warps per program.
  std::array<int64_t, 3> grid;
  int64_t numWarps;
};

/// The warps of a Triton program running `op`'s blocks: its threads per
/// block in warps, rounded down to a power of two (as Triton requires).
int64_t getNumWarps(kernel::GraphDefOp op);

/// Checks that the Triton backend can express the body of `op`; emits an
/// error naming the first op it cannot.
LogicalResult checkGraphDef(kernel::GraphDefOp op);

/// Writes the `@triton.jit` kernels of `op`, named `name` (or
/// `<name>_stage<k>` when cluster collectives split it into stages), and
/// returns how to launch them. `op` must pass checkGraphDef. Sets
/// `usesLibdevice` when a kernel calls `libdevice`.
GraphDefLaunch writeGraphDefKernels(kernel::GraphDefOp op, StringRef name,
                                    PythonWriter &writer, bool &usesLibdevice);

} // namespace mlir::mirage::triton

#endif // MIRAGE_LIB_TARGET_TRITON_GRAPHDEFKERNELS_H
