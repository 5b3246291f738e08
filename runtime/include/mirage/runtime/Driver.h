//===- Driver.h - CUDA driver helpers ---------------------------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Turns CUresult codes into Errors, keeps a context current for a scope, and
// owns device memory.
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

/// Device memory from cuMemAlloc, freed on destruction with cuMemFree in
/// the context current then, which must be the allocating one.
class DeviceMemory {
public:
  DeviceMemory() = default;
  DeviceMemory(DeviceMemory &&other) noexcept;
  DeviceMemory &operator=(DeviceMemory &&other) noexcept;
  DeviceMemory(const DeviceMemory &) = delete;
  DeviceMemory &operator=(const DeviceMemory &) = delete;
  ~DeviceMemory();

  /// Allocates `bytes` in the current context (after freeing what was held).
  Error allocate(size_t bytes);
  CUdeviceptr get() const { return pointer; }

private:
  CUdeviceptr pointer = 0;
};

} // namespace mirage::runtime

#endif // MIRAGE_RUNTIME_DRIVER_H
