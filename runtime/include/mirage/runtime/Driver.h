//===- Driver.h - CUDA driver helpers ---------------------------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Turns CUresult codes into Errors and keeps a context current for a scope.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_RUNTIME_DRIVER_H
#define MIRAGE_RUNTIME_DRIVER_H

#include "mirage/runtime/Error.h"

#include <cuda.h>

#include <string>

namespace mirage::runtime {

/// Success for CUDA_SUCCESS; otherwise a Driver error "<call>: <name>:
/// <description>", e.g. "cuMemAlloc: CUDA_ERROR_OUT_OF_MEMORY: out of memory".
Error checkDriver(CUresult result, const std::string &call);

/// Makes a context current for the lifetime of the scope (push on `enter`,
/// pop on destruction), restoring whatever was current before.
class ContextScope {
public:
  ContextScope() = default;
  ContextScope(const ContextScope &) = delete;
  ContextScope &operator=(const ContextScope &) = delete;
  ~ContextScope();

  /// Pushes `context`; the scope pops it when destroyed.
  Error enter(CUcontext context);

private:
  bool pushed = false;
};

} // namespace mirage::runtime

#endif // MIRAGE_RUNTIME_DRIVER_H
