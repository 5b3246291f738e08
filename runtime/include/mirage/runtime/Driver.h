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

/// A CUDA graph captured from a stream and its executable form, destroyed
/// with the object (in the context current then).
///
/// Example:
///   CapturedGraph graph;
///   if (Error error = graph.capture(stream, [&] { return enqueue(stream); }))
///     return error;
///   return graph.launch(stream);
class CapturedGraph {
public:
  CapturedGraph() = default;
  CapturedGraph(const CapturedGraph &) = delete;
  CapturedGraph &operator=(const CapturedGraph &) = delete;
  ~CapturedGraph();

  /// Captures what `enqueue` (returning an Error) puts on `stream`, in
  /// thread-local capture mode, and instantiates it. The capture ends even
  /// when `enqueue` fails; its error is returned first.
  template <typename Enqueue>
  Error capture(CUstream stream, Enqueue &&enqueue) {
    if (Error error = beginCapture(stream))
      return error;
    Error enqueued = enqueue();
    Error ended = endCapture(stream);
    if (enqueued)
      return enqueued;
    if (ended)
      return ended;
    return instantiate();
  }

  /// Launches the captured graph on `stream`.
  Error launch(CUstream stream) const;

private:
  Error beginCapture(CUstream stream);
  Error endCapture(CUstream stream);
  Error instantiate();

  CUgraph graph = nullptr;
  CUgraphExec executable = nullptr;
};

} // namespace mirage::runtime

#endif // MIRAGE_RUNTIME_DRIVER_H
