//===- Tuner.cpp - Measured selection among a program's candidates --------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "mirage/runtime/Tuner.h"

#include "mirage/runtime/Driver.h"
#include "mirage/runtime/TuningResults.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>

using namespace mirage::runtime;

namespace {

/// The function of `functions` named `name`, or null.
const Function *findFunction(const std::vector<const Function *> &functions,
                             const std::string &name) {
  for (const Function *function : functions)
    if (function->name == name)
      return function;
  return nullptr;
}

/// The smallest L2 flush, for devices that report no L2 size.
constexpr size_t minimumFlushBytes = size_t(1) << 20;

/// Device memory for tensors of `types` and the arguments describing it.
struct Tensors {
  std::vector<DeviceMemory> memory;
  std::vector<TensorArg> args;

  Error allocate(const std::vector<TensorType> &types, int device) {
    memory.resize(types.size());
    for (size_t i = 0; i < types.size(); ++i) {
      if (Error error =
              memory[i].allocate(static_cast<size_t>(types[i].numBytes())))
        return error;
      args.push_back(describeTensor(types[i], memory[i].get(), device));
    }
    return Error::success();
  }
};

/// Fails when the context cannot run anything any more, as after a kernel
/// fault: what follows would only repeat the fault.
Error checkContextUsable(const std::string &failed) {
  Error error = checkDriver(cuCtxSynchronize(), "cuCtxSynchronize");
  if (!error)
    return error;
  return Error(error.code(), "the CUDA context is unusable after " + failed +
                                 " failed (" + error.message() +
                                 "); no entry recorded");
}

/// `error`'s message without the "<function>: " that Bundle::run's
/// messages start with, since a measurement names its function.
std::string messageOf(const Error &error, const Function &function) {
  const std::string &message = error.message();
  std::string prefix = function.name + ": ";
  return message.compare(0, prefix.size(), prefix) == 0
             ? message.substr(prefix.size())
             : message;
}

} // namespace

Expected<std::unique_ptr<Tuner>> Tuner::create(const Bundle &bundle,
                                               const TuneOptions &options) {
  if (options.runs < 1 || options.warmup < 0 || !(options.rtol > 0) ||
      !std::isfinite(options.rtol) || !(options.inputScale > 0) ||
      !std::isfinite(options.inputScale))
    return Error(ErrorCode::InvalidArgument,
                 "tuning needs at least 1 run, at least 0 warm-up runs, a "
                 "positive finite rtol and a positive finite input scale");
  std::unique_ptr<Tuner> tuner(new Tuner(bundle, options));
  if (Error error = tuner->prepare())
    return error;
  return tuner;
}

Error Tuner::prepare() {
  ContextScope scope;
  if (Error error = scope.enter(bundle.context()))
    return error;
  CUdevice device = 0;
  if (Error error = checkDriver(cuCtxGetDevice(&device), "cuCtxGetDevice"))
    return error;
  int l2Bytes = 0;
  if (Error error =
          checkDriver(cuDeviceGetAttribute(
                          &l2Bytes, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, device),
                      "cuDeviceGetAttribute(L2_CACHE_SIZE)"))
    return error;
  flushBytes = std::max(2 * static_cast<size_t>(l2Bytes), minimumFlushBytes);
  if (Error error = checkDriver(cuMemAlloc(&flushBuffer, flushBytes),
                                "cuMemAlloc of the L2 flush buffer"))
    return error;
  if (Error error = checkDriver(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING),
                                "cuStreamCreate"))
    return error;
  events.resize(2 * static_cast<size_t>(options.runs), nullptr);
  for (CUevent &event : events)
    if (Error error = checkDriver(cuEventCreate(&event, CU_EVENT_DEFAULT),
                                  "cuEventCreate"))
      return error;
  return Error::success();
}

Tuner::~Tuner() {
  // Failures here (a context left unusable by a fault) leave nothing to do.
  ContextScope scope;
  if (scope.enter(bundle.context()))
    return;
  for (CUevent event : events)
    if (event)
      (void)cuEventDestroy(event);
  if (stream)
    (void)cuStreamDestroy(stream);
  if (flushBuffer)
    (void)cuMemFree(flushBuffer);
}

Expected<std::vector<std::vector<float>>>
Tuner::runOnce(const Function &function, const std::vector<TensorArg> &inputs,
               const std::vector<TensorArg> &outputs) {
  for (size_t i = 0; i < outputs.size(); ++i)
    // All-ones bytes are NaN in every dtype: unwritten elements show up.
    if (Error error =
            checkDriver(cuMemsetD8Async(outputs[i].data, 0xFF,
                                        function.outputs[i].numBytes(), stream),
                        "cuMemsetD8Async"))
      return error;
  if (Error error = bundle.run(function.name, inputs, outputs, stream))
    return error;
  if (Error error =
          checkDriver(cuStreamSynchronize(stream), "cuStreamSynchronize"))
    return error;
  std::vector<std::vector<float>> values;
  for (size_t i = 0; i < outputs.size(); ++i) {
    std::vector<unsigned char> bytes(function.outputs[i].numBytes());
    if (Error error = checkDriver(
            cuMemcpyDtoH(bytes.data(), outputs[i].data, bytes.size()),
            "cuMemcpyDtoH"))
      return error;
    values.push_back(decodeValues(bytes, function.outputs[i].dtype));
  }
  return values;
}

Expected<double> Tuner::timeGraph(const Function &function,
                                  const std::vector<TensorArg> &inputs,
                                  const std::vector<TensorArg> &outputs,
                                  int calls, bool flush, bool overlap) {
  CapturedGraph graph;
  if (Error error = graph.capture(stream, [&] {
        Error launched = Error::success();
        for (int call = 0; call < calls && !launched; ++call)
          launched =
              bundle.run(function.name, inputs, outputs, stream, overlap);
        return launched;
      }))
    return error;
  for (int run = 0; run < options.warmup + options.runs; ++run) {
    int timed = run - options.warmup;
    // The flush is outside the timed region; changing bytes keep it a write.
    if (flush)
      if (Error error = checkDriver(
              cuMemsetD8Async(flushBuffer, static_cast<unsigned char>(run),
                              flushBytes, stream),
              "cuMemsetD8Async of the L2 flush buffer"))
        return error;
    if (timed >= 0)
      if (Error error = checkDriver(cuEventRecord(events[2 * timed], stream),
                                    "cuEventRecord"))
        return error;
    if (Error error = graph.launch(stream))
      return error;
    if (timed >= 0)
      if (Error error = checkDriver(
              cuEventRecord(events[2 * timed + 1], stream), "cuEventRecord"))
        return error;
  }
  if (Error error = checkDriver(cuStreamSynchronize(stream),
                                "cuStreamSynchronize after the timed runs"))
    return error;
  std::vector<float> milliseconds(options.runs);
  for (int run = 0; run < options.runs; ++run)
    if (Error error =
            checkDriver(cuEventElapsedTime(&milliseconds[run], events[2 * run],
                                           events[2 * run + 1]),
                        "cuEventElapsedTime"))
      return error;
  // Nanoseconds are the last digit worth keeping.
  return std::round(double(median(milliseconds)) * 1e6 / calls) / 1e3;
}

Error Tuner::time(const Function &function,
                  const std::vector<TensorArg> &inputs,
                  const std::vector<TensorArg> &outputs,
                  TuningMeasurement &measurement,
                  std::optional<double> fastestUs) {
  // With programmatic dependent launch, and again without it where it
  // applies: which is faster depends on the kernels beside each other
  // (docs/Runtime.md, "Overlap"), so the choice is measured.
  for (bool overlap : {true, false}) {
    if (!overlap && !bundle.mayOverlap(function.name))
      break;
    Expected<double> cold = timeGraph(function, inputs, outputs, /*calls=*/1,
                                      /*flush=*/true, overlap);
    if (!cold)
      return cold.takeError();
    if (overlap && fastestUs && *cold >= coldOnlyFactor * *fastestUs) {
      measurement.coldUs = measurement.medianUs = *cold;
      measurement.warmUs.reset();
      measurement.overlap = true;
      char ratio[32];
      std::snprintf(ratio, sizeof(ratio), "%.1f", *cold / *fastestUs);
      measurement.message =
          "timed cold only: " + std::string(ratio) + "x the fastest before it";
      return Error::success();
    }
    Expected<double> warm = timeGraph(function, inputs, outputs, warmCalls,
                                      /*flush=*/false, overlap);
    if (!warm)
      return warm.takeError();
    double time = std::min(*cold, *warm);
    if (overlap || time < *measurement.medianUs) {
      measurement.coldUs = *cold;
      measurement.warmUs = *warm;
      measurement.medianUs = time;
      measurement.overlap = overlap;
    }
  }
  return Error::success();
}

Expected<std::vector<TuningMeasurement>>
Tuner::check(const std::vector<const Function *> &functions,
             const std::vector<TensorArg> &inputs,
             const std::vector<TensorArg> &outputs) {
  std::vector<TuningMeasurement> measurements;
  std::vector<std::vector<float>> expected;
  for (const Function *function : functions) {
    TuningMeasurement &measurement = measurements.emplace_back();
    measurement.function = function->name;
    measurement.candidate = function->tuning->candidate;
    Expected<std::vector<std::vector<float>>> values =
        runOnce(*function, inputs, outputs);
    bool asWritten = function == functions.front();
    if (!values && asWritten)
      return Error(values.error().code(),
                   "the program as written, " + function->name +
                       ", failed: " + messageOf(values.error(), *function));
    if (!values) {
      measurement.status = MeasurementStatus::Failed;
      measurement.message = messageOf(values.error(), *function);
      if (Error error = checkContextUsable(function->name))
        return error;
      continue;
    }
    if (asWritten) {
      // The reference of the others, and exact by definition.
      expected = std::move(*values);
      measurement.maxRelativeError = 0.0;
      continue;
    }
    std::vector<Difference> differences;
    for (size_t i = 0; i < expected.size(); ++i)
      differences.push_back(compareValues(expected[i], (*values)[i]));
    judgeOutputs(differences, options.rtol, measurement);
  }
  return measurements;
}

Error Tuner::timeCorrect(const std::vector<const Function *> &functions,
                         const std::vector<TensorArg> &inputs,
                         const std::vector<TensorArg> &outputs,
                         std::vector<TuningMeasurement> &measurements) {
  std::optional<double> fastestUs;
  for (size_t f = 0; f < functions.size(); ++f) {
    TuningMeasurement &measurement = measurements[f];
    if (measurement.status != MeasurementStatus::Ok)
      continue;
    Error timed = time(*functions[f], inputs, outputs, measurement, fastestUs);
    if (!timed)
      fastestUs = std::min(fastestUs.value_or(*measurement.medianUs),
                           *measurement.medianUs);
    if (timed && f == 0)
      return Error(timed.code(),
                   "timing the program as written, " + functions[f]->name +
                       ", failed: " + messageOf(timed, *functions[f]));
    if (timed) {
      measurement.status = MeasurementStatus::Failed;
      measurement.message = "timing: " + messageOf(timed, *functions[f]);
      measurement.coldUs.reset();
      measurement.warmUs.reset();
      if (Error error = checkContextUsable(functions[f]->name))
        return error;
    }
  }
  return Error::success();
}

Error Tuner::fillInputs(const std::vector<TensorType> &types,
                        const std::vector<TensorArg> &inputs,
                        RandomSource &source, double scale) {
  for (size_t i = 0; i < types.size(); ++i) {
    std::vector<float> values(types[i].numElements());
    for (float &value : values)
      value = static_cast<float>(source.normal() * scale);
    std::vector<unsigned char> bytes = encodeValues(values, types[i].dtype);
    // On the tuner's stream, which does not wait for the legacy one; from
    // pageable memory the call returns once `bytes` may be reused.
    if (Error error =
            checkDriver(cuMemcpyHtoDAsync(inputs[i].data, bytes.data(),
                                          bytes.size(), stream),
                        "cuMemcpyHtoDAsync"))
      return error;
  }
  return Error::success();
}

Expected<TuningEntry>
Tuner::tune(const TuningGroup &group,
            const std::vector<TuningMeasurement> &measured) {
  std::string where = "tuning group " + group.key.substr(0, 16) + ": ";
  auto located = [&](const Error &error) {
    return Error(error.code(), where + error.message());
  };
  const Function &asWritten = *group.asWritten;
  std::vector<const Function *> functions = {&asWritten};
  functions.insert(functions.end(), group.candidates.begin(),
                   group.candidates.end());
  // The function of each of the caller's measurements, checked first.
  std::vector<const Function *> measuredFunctions;
  for (const TuningMeasurement &measurement : measured) {
    auto named = findFunction(functions, measurement.function);
    std::string what = "the measurement of " + measurement.function + " (" +
                       std::string(tuningBackendName(measurement.backend)) +
                       ")";
    if (!named)
      return located(Error(ErrorCode::InvalidArgument,
                           what + " names no function of the group"));
    int64_t candidate = named->tuning ? named->tuning->candidate : -1;
    if (measurement.candidate != candidate)
      return located(Error(ErrorCode::InvalidArgument,
                           what + " gives candidate " +
                               std::to_string(measurement.candidate) +
                               ", the plan " + std::to_string(candidate)));
    if (measurement.backend == TuningBackend::Ptx)
      return located(Error(ErrorCode::InvalidArgument,
                           what + ": the tuner measures the PTX itself"));
    measuredFunctions.push_back(named);
  }

  // Declared before the tensors, so that they are freed in the context.
  ContextScope scope;
  if (Error error = scope.enter(bundle.context()))
    return located(error);
  int device = bundle.device().ordinal;
  Tensors inputs, outputs;
  if (Error error = inputs.allocate(asWritten.inputs, device))
    return located(error);
  if (Error error = outputs.allocate(asWritten.outputs, device))
    return located(error);
  // Inputs the program as written computes finite outputs from: candidates
  // cannot be judged against infinities.
  RandomSource source(options.seed);
  inputScale = options.inputScale;
  for (int shrinks = 0;; ++shrinks) {
    if (Error error =
            fillInputs(asWritten.inputs, inputs.args, source, inputScale))
      return located(error);
    Expected<std::vector<std::vector<float>>> values =
        runOnce(asWritten, inputs.args, outputs.args);
    if (!values)
      return located(
          Error(values.error().code(),
                "the program as written, " + asWritten.name +
                    ", failed: " + messageOf(values.error(), asWritten)));
    bool finite = std::all_of(values->begin(), values->end(), [](auto &v) {
      return std::all_of(v.begin(), v.end(),
                         [](float x) { return std::isfinite(x); });
    });
    if (finite)
      break;
    if (shrinks == maxInputShrinks)
      return located(
          Error(ErrorCode::InvalidArgument,
                "the program as written, " + asWritten.name +
                    ", gives non-finite outputs even on inputs of scale " +
                    std::to_string(inputScale) +
                    "; its candidates cannot be judged (try --input-scale)"));
    inputScale /= 16;
  }

  Expected<std::vector<TuningMeasurement>> measurements =
      check(functions, inputs.args, outputs.args);
  if (!measurements)
    return located(measurements.error());
  if (Error error =
          timeCorrect(functions, inputs.args, outputs.args, *measurements))
    return located(error);

  TuningEntry entry;
  entry.key = group.key;
  entry.compiler = group.compiler;
  entry.device = {bundle.device().name, bundle.device().major,
                  bundle.device().minor};
  entry.chip = bundle.chip();
  entry.date = utcDate(std::time(nullptr));
  // The program as written is Ok here, so there are winners: among the
  // PTX forms, then among all.
  auto winnerAt = [&](size_t index) {
    const TuningMeasurement &winner = (*measurements)[index];
    return TuningWinner{winner.function,  winner.candidate,
                        *winner.medianUs, functions[index]->program,
                        winner.backend,   winner.overlap};
  };
  TuningWinner ptxWinner =
      winnerAt(fastestCorrect(*measurements) - measurements->data());
  measurements->insert(measurements->end(), measured.begin(), measured.end());
  functions.insert(functions.end(), measuredFunctions.begin(),
                   measuredFunctions.end());
  entry.winner = winnerAt(fastestCorrect(*measurements) - measurements->data());
  if (entry.winner.backend != TuningBackend::Ptx)
    entry.ptxWinner = std::move(ptxWinner);
  entry.measurements = std::move(*measurements);
  return entry;
}

Expected<std::vector<TuningGroup>>
mirage::runtime::getTuningGroups(const Bundle &bundle,
                                 const std::string &bundleName) {
  Expected<std::vector<TuningGroup>> groups =
      groupTuningFunctions(bundle.plan());
  if (!groups)
    return Error(groups.error().code(),
                 "bundle " + bundleName + ": " + groups.error().message());
  if (groups->empty())
    return Error(ErrorCode::InvalidBundle,
                 "bundle " + bundleName +
                     ": no function has a \"tuning\" object, so there is "
                     "nothing to tune");
  return groups;
}

Expected<std::vector<std::vector<TuningMeasurement>>>
mirage::runtime::splitMeasurements(const std::vector<TuningGroup> &groups,
                                   std::vector<TuningMeasurement> measured) {
  std::vector<std::vector<TuningMeasurement>> split(groups.size());
  for (size_t i = 0; i < measured.size(); ++i) {
    auto inGroup = [&](const TuningGroup &group) {
      return group.asWritten->name == measured[i].function ||
             findFunction(group.candidates, measured[i].function);
    };
    auto found = std::find_if(groups.begin(), groups.end(), inGroup);
    if (found == groups.end())
      return Error(ErrorCode::InvalidArgument,
                   "measurements[" + std::to_string(i) +
                       "].function: " + measured[i].function +
                       " is not a function of a tuning group of the bundle");
    split[found - groups.begin()].push_back(std::move(measured[i]));
  }
  return split;
}

void mirage::runtime::tuneAndRecord(
    Tuner &tuner, const std::vector<TuningGroup> &groups,
    const std::vector<std::vector<TuningMeasurement>> &measured,
    const TuningDatabase &database,
    const std::function<void(const Expected<TuningEntry> &, const Error &)>
        &done) {
  for (size_t i = 0; i < groups.size(); ++i) {
    const TuningGroup &group = groups[i];
    Expected<TuningEntry> entry =
        tuner.tune(group, measured.empty() ? std::vector<TuningMeasurement>()
                                           : measured[i]);
    Error recorded = entry ? database.record(*entry) : Error::success();
    done(entry, recorded);
  }
}
