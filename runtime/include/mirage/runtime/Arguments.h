//===- Arguments.h - Checking call arguments against a plan -----*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Describes the tensors a caller passes to a bundle function, and checks
// them against the function's plan without touching the CUDA driver. The
// driver-side checks (which device a pointer lives on) are in Bundle.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_RUNTIME_ARGUMENTS_H
#define MIRAGE_RUNTIME_ARGUMENTS_H

#include "mirage/runtime/Error.h"
#include "mirage/runtime/Plan.h"

#include <cstdint>
#include <vector>

namespace mirage::runtime {

/// Kernels may access tensors with 16-byte vector instructions, so every
/// tensor's data pointer must be aligned to this many bytes.
inline constexpr uint64_t requiredAlignment = 16;

/// One tensor argument of a call: where it lives and how it is laid out.
struct TensorArg {
  /// Device pointer (a CUdeviceptr).
  uint64_t data = 0;
  DType dtype = DType::F32;
  std::vector<int64_t> shape;
  /// In elements.
  std::vector<int64_t> strides;
  /// CUDA device ordinal the caller believes the tensor is on.
  int device = 0;
};

/// The argument for a tensor of `type` (contiguous) at `data` on `device`.
TensorArg describeTensor(const TensorType &type, uint64_t data, int device);

/// Checks the caller's tensors against `function`'s plan: their counts, and
/// for each tensor a non-null and 16-byte aligned pointer, the dtype, the
/// shape, and contiguous strides (a dimension of extent 1 may have any
/// stride, since it never moves an address). Also rejects outputs that
/// overlap an input or another output. Failures are InvalidArgument errors
/// that name the function and the tensor, e.g. "gqa_bs1: input 1: expected
/// shape [2, 256, 64], got [2, 64, 256]".
Error checkArguments(const Function &function,
                     const std::vector<TensorArg> &inputs,
                     const std::vector<TensorArg> &outputs);

} // namespace mirage::runtime

#endif // MIRAGE_RUNTIME_ARGUMENTS_H
