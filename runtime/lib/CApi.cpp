//===- CApi.cpp - C interface of the bundle runtime -----------------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "mirage/runtime/CApi.h"

#include "mirage/runtime/Bundle.h"
#include "mirage/runtime/Tuner.h"
#include "mirage/runtime/TuningResults.h"

#include <exception>
#include <new>

using namespace mirage::runtime;

struct mirage_bundle {
  std::unique_ptr<Bundle> bundle;
};

namespace {

/// Tensors of higher rank are surely a caller's mistake.
constexpr int32_t maxRank = 64;

thread_local std::string lastError;
thread_local std::string lastReport;

int report(const Error &error) {
  if (!error) {
    lastError.clear();
    return MIRAGE_SUCCESS;
  }
  lastError = error.message();
  return static_cast<int>(error.code());
}

Error invalid(const std::string &message) {
  return Error(ErrorCode::InvalidArgument, message);
}

/// Runs `body`, turning any escaping C++ exception into a status, since none
/// may cross the C boundary.
template <typename Body> int guarded(Body body) {
  try {
    return report(body());
  } catch (const std::bad_alloc &) {
    return report(Error(ErrorCode::Driver, "out of host memory"));
  } catch (const std::exception &exception) {
    return report(Error(ErrorCode::Driver,
                        std::string("internal error: ") + exception.what()));
  } catch (...) {
    return report(Error(ErrorCode::Driver, "internal error"));
  }
}

Error convertTensors(const char *what, int count, const mirage_tensor *tensors,
                     std::vector<TensorArg> &result) {
  if (count < 0)
    return invalid(std::string("negative number of ") + what);
  if (count > 0 && !tensors)
    return invalid(std::string("null ") + what + " array");
  for (int i = 0; i < count; ++i) {
    const mirage_tensor &tensor = tensors[i];
    std::string name = std::string(what) + " " + std::to_string(i);
    if (tensor.rank < 0 || tensor.rank > maxRank)
      return invalid(name + ": invalid rank " + std::to_string(tensor.rank));
    if (tensor.rank > 0 && (!tensor.shape || !tensor.strides))
      return invalid(name + ": null shape or strides");
    if (tensor.dtype < MIRAGE_DTYPE_F16 || tensor.dtype > MIRAGE_DTYPE_F32)
      return invalid(name + ": invalid dtype code " +
                     std::to_string(tensor.dtype));
    TensorArg arg;
    arg.data = tensor.data;
    arg.dtype = static_cast<DType>(tensor.dtype);
    arg.shape.assign(tensor.shape, tensor.shape + tensor.rank);
    arg.strides.assign(tensor.strides, tensor.strides + tensor.rank);
    arg.device = tensor.device;
    result.push_back(std::move(arg));
  }
  return Error::success();
}

} // namespace

static_assert(static_cast<int>(DType::F16) == MIRAGE_DTYPE_F16 &&
                  static_cast<int>(DType::BF16) == MIRAGE_DTYPE_BF16 &&
                  static_cast<int>(DType::F32) == MIRAGE_DTYPE_F32,
              "mirage_dtype must mirror DType");

int mirage_bundle_load(const char *directory, int device, const char *chip,
                       mirage_bundle **bundle) {
  return guarded([&]() -> Error {
    if (!directory || !bundle)
      return invalid("mirage_bundle_load: null argument");
    *bundle = nullptr;
    Expected<std::unique_ptr<Bundle>> loaded =
        Bundle::load(directory, device, chip ? chip : "");
    if (!loaded)
      return loaded.takeError();
    *bundle = new mirage_bundle{std::move(*loaded)};
    return Error::success();
  });
}

int mirage_bundle_free(mirage_bundle *bundle) {
  delete bundle;
  lastError.clear();
  return MIRAGE_SUCCESS;
}

int mirage_bundle_num_functions(const mirage_bundle *bundle, int *count) {
  return guarded([&]() -> Error {
    if (!bundle || !count)
      return invalid("mirage_bundle_num_functions: null argument");
    *count = static_cast<int>(bundle->bundle->plan().functions.size());
    return Error::success();
  });
}

int mirage_bundle_function_name(const mirage_bundle *bundle, int index,
                                const char **name) {
  return guarded([&]() -> Error {
    if (!bundle || !name)
      return invalid("mirage_bundle_function_name: null argument");
    const std::vector<Function> &functions = bundle->bundle->plan().functions;
    if (index < 0 || static_cast<size_t>(index) >= functions.size())
      return invalid("mirage_bundle_function_name: index " +
                     std::to_string(index) + " out of range (" +
                     std::to_string(functions.size()) + " functions)");
    *name = functions[index].name.c_str();
    return Error::success();
  });
}

int mirage_bundle_chip(const mirage_bundle *bundle, const char **chip) {
  return guarded([&]() -> Error {
    if (!bundle || !chip)
      return invalid("mirage_bundle_chip: null argument");
    *chip = bundle->bundle->chip().c_str();
    return Error::success();
  });
}

int mirage_bundle_device(const mirage_bundle *bundle, int *device) {
  return guarded([&]() -> Error {
    if (!bundle || !device)
      return invalid("mirage_bundle_device: null argument");
    *device = bundle->bundle->device().ordinal;
    return Error::success();
  });
}

int mirage_bundle_run(const mirage_bundle *bundle, const char *function,
                      int num_inputs, const mirage_tensor *inputs,
                      int num_outputs, const mirage_tensor *outputs,
                      void *stream) {
  return mirage_bundle_run_ex(bundle, function, num_inputs, inputs, num_outputs,
                              outputs, stream, /*overlap=*/1);
}

int mirage_bundle_run_ex(const mirage_bundle *bundle, const char *function,
                         int num_inputs, const mirage_tensor *inputs,
                         int num_outputs, const mirage_tensor *outputs,
                         void *stream, int overlap) {
  return guarded([&]() -> Error {
    if (!bundle)
      return invalid("mirage_bundle_run: null bundle");
    std::vector<TensorArg> inputArgs, outputArgs;
    if (Error error = convertTensors("input", num_inputs, inputs, inputArgs))
      return error;
    if (Error error =
            convertTensors("output", num_outputs, outputs, outputArgs))
      return error;
    return bundle->bundle->run(function ? function : "", inputArgs, outputArgs,
                               static_cast<CUstream>(stream), overlap != 0);
  });
}

int mirage_bundle_tune(const mirage_bundle *bundle, const char *database,
                       const char **report) {
  return mirage_bundle_tune_measured(bundle, database, nullptr, report);
}

int mirage_bundle_tune_measured(const mirage_bundle *bundle,
                                const char *database, const char *measurements,
                                const char **report) {
  return guarded([&]() -> Error {
    if (!bundle || !report)
      return invalid("mirage_bundle_tune: null argument");
    lastReport.clear();
    *report = lastReport.c_str();
    std::string path = database ? database : "";
    if (path.empty()) {
      Expected<std::string> found = defaultTuningDatabasePath();
      if (!found)
        return found.takeError();
      path = *found;
    }
    TuningDatabase store(path);
    // A database that cannot take the results is refused before measuring.
    if (Expected<std::vector<TuningEntry>> stored = store.entries(); !stored)
      return stored.takeError();
    const Bundle &loaded = *bundle->bundle;
    Expected<std::vector<TuningGroup>> groups =
        getTuningGroups(loaded, loaded.directory());
    if (!groups)
      return groups.takeError();
    std::vector<std::vector<TuningMeasurement>> measured;
    if (measurements) {
      Expected<std::vector<TuningMeasurement>> parsed =
          parseTuningMeasurements(measurements);
      if (!parsed)
        return parsed.takeError();
      Expected<std::vector<std::vector<TuningMeasurement>>> split =
          splitMeasurements(*groups, std::move(*parsed));
      if (!split)
        return split.takeError();
      measured = std::move(*split);
    }
    Expected<std::unique_ptr<Tuner>> tuner =
        Tuner::create(loaded, TuneOptions());
    if (!tuner)
      return tuner.takeError();
    Error first = Error::success();
    tuneAndRecord(
        **tuner, *groups, measured, store,
        [&](const Expected<TuningEntry> &entry, const Error &recorded) {
          const Error &failure = entry ? recorded : entry.error();
          if (entry)
            lastReport += formatTuningReport(*entry);
          if (failure) {
            lastReport += "error: " + failure.message() + "\n";
            if (!first)
              first = failure;
          }
        });
    *report = lastReport.c_str();
    return first;
  });
}

const char *mirage_last_error(void) { return lastError.c_str(); }
