//===- Driver.cpp - CUDA driver helpers -----------------------------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "mirage/runtime/Driver.h"

#include <utility>

using namespace mirage::runtime;

Error mirage::runtime::checkDriver(CUresult result, const std::string &call) {
  if (result == CUDA_SUCCESS)
    return Error::success();
  const char *name = nullptr;
  const char *description = nullptr;
  if (cuGetErrorName(result, &name) != CUDA_SUCCESS)
    name = nullptr;
  if (cuGetErrorString(result, &description) != CUDA_SUCCESS)
    description = nullptr;
  std::string message = call + ": ";
  message += name ? name : "CUresult " + std::to_string(result);
  if (description)
    message += std::string(": ") + description;
  return Error(ErrorCode::Driver, message);
}

ContextScope::~ContextScope() {
  if (pushed) {
    CUcontext popped = nullptr;
    (void)cuCtxPopCurrent(&popped);
  }
}

Error ContextScope::enter(CUcontext context) {
  if (Error error = checkDriver(cuCtxPushCurrent(context), "cuCtxPushCurrent"))
    return error;
  pushed = true;
  return Error::success();
}

DeviceMemory::DeviceMemory(DeviceMemory &&other) noexcept
    : pointer(std::exchange(other.pointer, 0)) {}

DeviceMemory &DeviceMemory::operator=(DeviceMemory &&other) noexcept {
  std::swap(pointer, other.pointer);
  return *this;
}

DeviceMemory::~DeviceMemory() {
  if (pointer)
    (void)cuMemFree(pointer);
}

Error DeviceMemory::allocate(size_t bytes) {
  if (pointer)
    (void)cuMemFree(std::exchange(pointer, 0));
  return checkDriver(cuMemAlloc(&pointer, bytes), "cuMemAlloc");
}

CapturedGraph::~CapturedGraph() {
  if (executable)
    (void)cuGraphExecDestroy(executable);
  if (graph)
    (void)cuGraphDestroy(graph);
}

Error CapturedGraph::beginCapture(CUstream stream) {
  return checkDriver(
      cuStreamBeginCapture(stream, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL),
      "cuStreamBeginCapture");
}

Error CapturedGraph::endCapture(CUstream stream) {
  return checkDriver(cuStreamEndCapture(stream, &graph), "cuStreamEndCapture");
}

Error CapturedGraph::instantiate() {
  return checkDriver(cuGraphInstantiate(&executable, graph, 0),
                     "cuGraphInstantiate");
}

Error CapturedGraph::launch(CUstream stream) const {
  return checkDriver(cuGraphLaunch(executable, stream), "cuGraphLaunch");
}
