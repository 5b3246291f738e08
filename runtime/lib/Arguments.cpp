//===- Arguments.cpp - Checking call arguments against a plan -------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "mirage/runtime/Arguments.h"

#include <cstdio>

using namespace mirage::runtime;

namespace {

std::string formatPointer(uint64_t pointer) {
  char text[32];
  std::snprintf(text, sizeof(text), "0x%llx",
                static_cast<unsigned long long>(pointer));
  return text;
}

/// Checks one tensor; `what` is e.g. "input 0".
Error checkTensor(const std::string &function, const std::string &what,
                  const TensorType &expected, const TensorArg &actual) {
  auto failure = [&](const std::string &message) {
    return Error(ErrorCode::InvalidArgument,
                 function + ": " + what + ": " + message);
  };
  if (actual.data == 0)
    return failure("null data pointer");
  if (actual.data % requiredAlignment != 0)
    return failure("data pointer " + formatPointer(actual.data) +
                   " is not 16-byte aligned");
  if (actual.dtype != expected.dtype)
    return failure("expected dtype " + std::string(dtypeName(expected.dtype)) +
                   ", got " + std::string(dtypeName(actual.dtype)));
  if (actual.shape != expected.shape)
    return failure("expected shape " + formatList(expected.shape) + ", got " +
                   formatList(actual.shape));
  if (actual.strides.size() != actual.shape.size())
    return failure("strides " + formatList(actual.strides) +
                   " do not match the rank of the shape " +
                   formatList(actual.shape));
  for (size_t i = 0; i < actual.shape.size(); ++i)
    if (actual.shape[i] != 1 && actual.strides[i] != expected.strides[i])
      return failure("strides " + formatList(actual.strides) +
                     " are not the contiguous strides " +
                     formatList(expected.strides) +
                     " (make the tensor contiguous)");
  return Error::success();
}

/// True when the byte ranges of two tensors of the given types intersect.
bool overlaps(const TensorArg &a, const TensorType &aType, const TensorArg &b,
              const TensorType &bType) {
  uint64_t aEnd = a.data + static_cast<uint64_t>(aType.numBytes());
  uint64_t bEnd = b.data + static_cast<uint64_t>(bType.numBytes());
  return a.data < bEnd && b.data < aEnd;
}

} // namespace

Error mirage::runtime::checkArguments(const Function &function,
                                      const std::vector<TensorArg> &inputs,
                                      const std::vector<TensorArg> &outputs) {
  auto countFailure = [&](const char *what, size_t expected, size_t actual) {
    return Error(ErrorCode::InvalidArgument,
                 function.name + ": expected " + std::to_string(expected) +
                     " " + what + ", got " + std::to_string(actual));
  };
  if (inputs.size() != function.inputs.size())
    return countFailure("inputs", function.inputs.size(), inputs.size());
  if (outputs.size() != function.outputs.size())
    return countFailure("outputs", function.outputs.size(), outputs.size());
  for (size_t i = 0; i < inputs.size(); ++i)
    if (Error error = checkTensor(function.name, "input " + std::to_string(i),
                                  function.inputs[i], inputs[i]))
      return error;
  for (size_t i = 0; i < outputs.size(); ++i)
    if (Error error = checkTensor(function.name, "output " + std::to_string(i),
                                  function.outputs[i], outputs[i]))
      return error;

  for (size_t o = 0; o < outputs.size(); ++o) {
    auto overlapFailure = [&](const std::string &other) {
      return Error(ErrorCode::InvalidArgument,
                   function.name + ": output " + std::to_string(o) +
                       " overlaps " + other + " in memory");
    };
    for (size_t i = 0; i < inputs.size(); ++i)
      if (overlaps(outputs[o], function.outputs[o], inputs[i],
                   function.inputs[i]))
        return overlapFailure("input " + std::to_string(i));
    for (size_t other = 0; other < o; ++other)
      if (overlaps(outputs[o], function.outputs[o], outputs[other],
                   function.outputs[other]))
        return overlapFailure("output " + std::to_string(other));
  }
  return Error::success();
}

TensorArg mirage::runtime::describeTensor(const TensorType &type, uint64_t data,
                                          int device) {
  TensorArg arg;
  arg.data = data;
  arg.dtype = type.dtype;
  arg.shape = type.shape;
  arg.strides = type.strides;
  arg.device = device;
  return arg;
}
