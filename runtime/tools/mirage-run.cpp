//===- mirage-run.cpp - Run a bundle function on random inputs ------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// mirage-run BUNDLE_DIR [--function NAME] [--iters N] [--device N]
//            [--chip CHIP]
//
// Loads a bundle, fills its inputs with deterministic normal(0, 0.1) values,
// runs the function once and prints checksums of every output (elements the
// function never wrote stay NaN and are counted as non-finite), then prints
// the median time of N more runs measured with CUDA events. --chip loads
// that chip's PTX instead of the device's own (e.g. sm_80 on an H100).
//
//===----------------------------------------------------------------------===//

#include "mirage/runtime/Bundle.h"
#include "mirage/runtime/Driver.h"
#include "mirage/runtime/Numerics.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace mirage::runtime;

namespace {

/// Standard deviation of the random inputs; small enough that exp() of
/// attention scores stays far from f16 overflow.
constexpr double inputScale = 0.1;
constexpr uint64_t inputSeed = 1;

struct Options {
  std::string directory;
  std::string function;
  std::string chip;
  int iterations = 10;
  int device = 0;
};

void printUsage() {
  std::fprintf(stderr,
               "usage: mirage-run BUNDLE_DIR [--function NAME] [--iters N] "
               "[--device N] [--chip CHIP]\n");
}

bool parseCount(const char *text, int minimum, int &value) {
  char *end = nullptr;
  long parsed = std::strtol(text, &end, 10);
  if (!*text || *end || parsed < minimum || parsed > 1000000)
    return false;
  value = static_cast<int>(parsed);
  return true;
}

Expected<Options> parseOptions(int argc, char **argv) {
  Options options;
  auto usage = [](const std::string &message) {
    return Error(ErrorCode::InvalidArgument, message);
  };
  for (int i = 1; i < argc; ++i) {
    std::string argument = argv[i];
    bool hasValue = i + 1 < argc;
    if (argument == "--function" && hasValue) {
      options.function = argv[++i];
    } else if (argument == "--chip" && hasValue) {
      options.chip = argv[++i];
    } else if (argument == "--iters" && hasValue) {
      if (!parseCount(argv[++i], 1, options.iterations))
        return usage("--iters: expected a positive integer");
    } else if (argument == "--device" && hasValue) {
      if (!parseCount(argv[++i], 0, options.device))
        return usage("--device: expected a device ordinal");
    } else if (argument.rfind("--", 0) == 0) {
      return usage("unknown or incomplete option " + argument);
    } else if (options.directory.empty()) {
      options.directory = argument;
    } else {
      return usage("more than one bundle directory given");
    }
  }
  if (options.directory.empty())
    return usage("no bundle directory given");
  return options;
}

/// Everything mirage-run creates in the context, released in reverse order.
struct Session {
  CUdevice device = 0;
  bool retained = false;
  CUstream stream = nullptr;
  std::vector<CUevent> events;

  ~Session() {
    for (CUevent event : events)
      (void)cuEventDestroy(event);
    if (stream)
      (void)cuStreamDestroy(stream);
    if (retained)
      (void)cuDevicePrimaryCtxRelease(device);
  }
};

Error printChecksums(const std::vector<TensorType> &types,
                     const std::vector<DeviceMemory> &memory) {
  for (size_t i = 0; i < types.size(); ++i) {
    std::vector<unsigned char> bytes(types[i].numBytes());
    if (Error error = checkDriver(
            cuMemcpyDtoH(bytes.data(), memory[i].get(), bytes.size()),
            "cuMemcpyDtoH"))
      return error;
    double sum = 0, absSum = 0;
    int64_t nonFinite = 0;
    for (double value : decodeValues(bytes, types[i].dtype)) {
      if (!std::isfinite(value)) {
        ++nonFinite;
        continue;
      }
      sum += value;
      absSum += std::fabs(value);
    }
    std::printf("output %zu: %s %s: sum %.6e, abs sum %.6e, non-finite %lld\n",
                i, std::string(dtypeName(types[i].dtype)).c_str(),
                formatList(types[i].shape).c_str(), sum, absSum,
                static_cast<long long>(nonFinite));
  }
  return Error::success();
}

Error runTool(const Options &options) {
  Session session;
  if (Error error = checkDriver(cuInit(0), "cuInit"))
    return error;
  if (Error error = checkDriver(cuDeviceGet(&session.device, options.device),
                                "cuDeviceGet"))
    return error;
  CUcontext context = nullptr;
  if (Error error =
          checkDriver(cuDevicePrimaryCtxRetain(&context, session.device),
                      "cuDevicePrimaryCtxRetain"))
    return error;
  session.retained = true;
  if (Error error = checkDriver(cuCtxSetCurrent(context), "cuCtxSetCurrent"))
    return error;

  Expected<std::unique_ptr<Bundle>> loaded =
      Bundle::load(options.directory, options.device, options.chip);
  if (!loaded)
    return loaded.takeError();
  const Bundle &bundle = **loaded;
  Expected<const Function *> found = bundle.plan().lookup(options.function);
  if (!found)
    return found.takeError();
  const Function &function = **found;
  std::printf("bundle: %s (%s on device %d, %s)\n", options.directory.c_str(),
              bundle.chip().c_str(), bundle.device().ordinal,
              bundle.device().name.c_str());
  std::printf("function: %s: %zu inputs, %zu outputs, %zu launches\n",
              function.name.c_str(), function.inputs.size(),
              function.outputs.size(), function.launches.size());

  RandomSource source(inputSeed);
  std::vector<DeviceMemory> inputMemory(function.inputs.size());
  std::vector<TensorArg> inputs;
  for (size_t i = 0; i < function.inputs.size(); ++i) {
    const TensorType &type = function.inputs[i];
    std::vector<float> values(type.numElements());
    for (float &value : values)
      value = static_cast<float>(source.normal() * inputScale);
    std::vector<unsigned char> bytes = encodeValues(values, type.dtype);
    if (Error error = inputMemory[i].allocate(bytes.size()))
      return error;
    if (Error error = checkDriver(
            cuMemcpyHtoD(inputMemory[i].get(), bytes.data(), bytes.size()),
            "cuMemcpyHtoD"))
      return error;
    inputs.push_back(
        describeTensor(type, inputMemory[i].get(), options.device));
  }
  std::vector<DeviceMemory> outputMemory(function.outputs.size());
  std::vector<TensorArg> outputs;
  for (size_t i = 0; i < function.outputs.size(); ++i) {
    size_t bytes = function.outputs[i].numBytes();
    if (Error error = outputMemory[i].allocate(bytes))
      return error;
    // All-ones bytes are NaN in every dtype: unwritten elements show up.
    if (Error error = checkDriver(
            cuMemsetD8(outputMemory[i].get(), 0xFF, bytes), "cuMemsetD8"))
      return error;
    outputs.push_back(describeTensor(function.outputs[i], outputMemory[i].get(),
                                     options.device));
  }
  std::printf("inputs: normal(0, %g), seed %llu\n", inputScale,
              static_cast<unsigned long long>(inputSeed));

  if (Error error =
          checkDriver(cuStreamCreate(&session.stream, CU_STREAM_NON_BLOCKING),
                      "cuStreamCreate"))
    return error;
  if (Error error = bundle.run(function.name, inputs, outputs, session.stream))
    return error;
  if (Error error = checkDriver(cuStreamSynchronize(session.stream),
                                "cuStreamSynchronize after the first run"))
    return error;
  if (Error error = printChecksums(function.outputs, outputMemory))
    return error;

  session.events.resize(2 * options.iterations, nullptr);
  for (CUevent &event : session.events)
    if (Error error = checkDriver(cuEventCreate(&event, CU_EVENT_DEFAULT),
                                  "cuEventCreate"))
      return error;
  for (int i = 0; i < options.iterations; ++i) {
    if (Error error =
            checkDriver(cuEventRecord(session.events[2 * i], session.stream),
                        "cuEventRecord"))
      return error;
    if (Error error =
            bundle.run(function.name, inputs, outputs, session.stream))
      return error;
    if (Error error = checkDriver(
            cuEventRecord(session.events[2 * i + 1], session.stream),
            "cuEventRecord"))
      return error;
  }
  if (Error error = checkDriver(cuStreamSynchronize(session.stream),
                                "cuStreamSynchronize after the timed runs"))
    return error;
  std::vector<float> times(options.iterations);
  for (int i = 0; i < options.iterations; ++i)
    if (Error error =
            checkDriver(cuEventElapsedTime(&times[i], session.events[2 * i],
                                           session.events[2 * i + 1]),
                        "cuEventElapsedTime"))
      return error;
  std::printf("time: median %.4f ms over %d runs\n", median(times),
              options.iterations);
  return Error::success();
}

} // namespace

int main(int argc, char **argv) {
  Expected<Options> options = parseOptions(argc, argv);
  if (!options) {
    std::fprintf(stderr, "mirage-run: error: %s\n",
                 options.error().message().c_str());
    printUsage();
    return 2;
  }
  if (Error error = runTool(*options)) {
    std::fprintf(stderr, "mirage-run: error: %s\n", error.message().c_str());
    return 1;
  }
  return 0;
}
