//===- ArgumentsTests.cpp - Tests of call-argument checking ---------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Testing.h"

#include "mirage/runtime/Arguments.h"

using namespace mirage::runtime;

namespace {

TensorType tensorType(std::vector<int64_t> shape, DType dtype) {
  TensorType type;
  type.strides = contiguousStrides(shape);
  type.shape = std::move(shape);
  type.dtype = dtype;
  return type;
}

/// f(x: f16[4, 1, 8], y: f32[8]) -> (f16[4, 8])
Function exampleFunction() {
  Function function;
  function.name = "f";
  function.inputs = {tensorType({4, 1, 8}, DType::F16),
                     tensorType({8}, DType::F32)};
  function.outputs = {tensorType({4, 8}, DType::F16)};
  return function;
}

TensorArg argumentFor(const TensorType &type, uint64_t data) {
  return describeTensor(type, data, 0);
}

/// Arguments that match exampleFunction, in disjoint memory.
struct Call {
  std::vector<TensorArg> inputs;
  std::vector<TensorArg> outputs;
};

Call validCall(const Function &function) {
  return {{argumentFor(function.inputs[0], 0x10000),
           argumentFor(function.inputs[1], 0x20000)},
          {argumentFor(function.outputs[0], 0x30000)}};
}

} // namespace

MIRAGE_TEST(Arguments, DescribesTensorsOfAPlan) {
  TensorType type = tensorType({4, 1, 8}, DType::BF16);
  TensorArg arg = describeTensor(type, 4096, 3);
  EXPECT_EQ(arg.data, uint64_t(4096));
  EXPECT_TRUE(arg.dtype == DType::BF16);
  EXPECT_EQ(formatList(arg.shape), std::string("[4, 1, 8]"));
  EXPECT_EQ(formatList(arg.strides), std::string("[8, 8, 1]"));
  EXPECT_EQ(arg.device, 3);
}

MIRAGE_TEST(Arguments, AcceptsMatchingTensors) {
  Function function = exampleFunction();
  Call call = validCall(function);
  EXPECT_OK(checkArguments(function, call.inputs, call.outputs));
}

MIRAGE_TEST(Arguments, RejectsWrongCounts) {
  Function function = exampleFunction();
  Call call = validCall(function);
  call.inputs.pop_back();
  EXPECT_FAILS_WITH(checkArguments(function, call.inputs, call.outputs),
                    "f: expected 2 inputs, got 1");
  call = validCall(function);
  call.outputs.push_back(call.outputs[0]);
  EXPECT_FAILS_WITH(checkArguments(function, call.inputs, call.outputs),
                    "f: expected 1 outputs, got 2");
  EXPECT_FAILS_WITH(checkArguments(function, {}, {}),
                    "f: expected 2 inputs, got 0");
}

MIRAGE_TEST(Arguments, RejectsNullAndMisalignedPointers) {
  Function function = exampleFunction();
  Call call = validCall(function);
  call.inputs[1].data = 0;
  EXPECT_FAILS_WITH(checkArguments(function, call.inputs, call.outputs),
                    "f: input 1: null data pointer");
  call = validCall(function);
  call.outputs[0].data += 2;
  EXPECT_FAILS_WITH(checkArguments(function, call.inputs, call.outputs),
                    "f: output 0: data pointer 0x30002 is not 16-byte aligned");
}

MIRAGE_TEST(Arguments, RejectsWrongDType) {
  Function function = exampleFunction();
  Call call = validCall(function);
  call.inputs[0].dtype = DType::BF16;
  EXPECT_FAILS_WITH(checkArguments(function, call.inputs, call.outputs),
                    "f: input 0: expected dtype f16, got bf16");
}

MIRAGE_TEST(Arguments, RejectsWrongShape) {
  Function function = exampleFunction();
  Call call = validCall(function);
  call.inputs[0].shape = {4, 8, 1};
  call.inputs[0].strides = {8, 1, 1};
  EXPECT_FAILS_WITH(checkArguments(function, call.inputs, call.outputs),
                    "f: input 0: expected shape [4, 1, 8], got [4, 8, 1]");
  call = validCall(function);
  call.outputs[0].shape = {32};
  call.outputs[0].strides = {1};
  EXPECT_FAILS_WITH(checkArguments(function, call.inputs, call.outputs),
                    "f: output 0: expected shape [4, 8], got [32]");
}

MIRAGE_TEST(Arguments, RejectsNonContiguousStrides) {
  Function function = exampleFunction();
  Call call = validCall(function);
  call.outputs[0].strides = {1, 4};
  EXPECT_FAILS_WITH(checkArguments(function, call.inputs, call.outputs),
                    "f: output 0: strides [1, 4] are not the contiguous "
                    "strides [8, 1]");
  call = validCall(function);
  call.inputs[1].strides = {2};
  EXPECT_FAILS_WITH(checkArguments(function, call.inputs, call.outputs),
                    "f: input 1: strides [2] are not the contiguous strides "
                    "[1]");
  call = validCall(function);
  call.inputs[1].strides = {};
  EXPECT_FAILS_WITH(checkArguments(function, call.inputs, call.outputs),
                    "f: input 1: strides [] do not match the rank");
}

MIRAGE_TEST(Arguments, IgnoresStridesOfUnitDimensions) {
  Function function = exampleFunction();
  Call call = validCall(function);
  call.inputs[0].strides = {8, 1, 1};
  EXPECT_OK(checkArguments(function, call.inputs, call.outputs));
  call.inputs[0].strides = {8, 12345, 2};
  EXPECT_FAILS_WITH(checkArguments(function, call.inputs, call.outputs),
                    "f: input 0: strides [8, 12345, 2] are not the contiguous "
                    "strides [8, 8, 1]");
}

MIRAGE_TEST(Arguments, RejectsOverlappingOutputs) {
  Function function = exampleFunction();
  function.outputs.push_back(function.outputs[0]);
  Call call = validCall(function);
  call.outputs.push_back(argumentFor(function.outputs[1], 0x40000));
  EXPECT_OK(checkArguments(function, call.inputs, call.outputs));

  // Input 0 spans [0x10000, 0x10040); an output ending at its start is fine.
  call.outputs[0].data = 0x10000 - 64;
  EXPECT_OK(checkArguments(function, call.inputs, call.outputs));
  call.outputs[0].data = 0x10000 - 48;
  EXPECT_FAILS_WITH(checkArguments(function, call.inputs, call.outputs),
                    "f: output 0 overlaps input 0 in memory");
  call.outputs[0].data = 0x40000 + 16;
  EXPECT_FAILS_WITH(checkArguments(function, call.inputs, call.outputs),
                    "f: output 1 overlaps output 0 in memory");
  // Inputs may alias each other: kernels only read them.
  call = validCall(function);
  call.outputs.push_back(argumentFor(function.outputs[1], 0x40000));
  call.inputs[1].data = call.inputs[0].data;
  EXPECT_OK(checkArguments(function, call.inputs, call.outputs));
}
