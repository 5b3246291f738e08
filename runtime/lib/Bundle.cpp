//===- Bundle.cpp - A loaded bundle ---------------------------------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "mirage/runtime/Bundle.h"

#include "MatmulLibrary.h"

#include "mirage/runtime/Driver.h"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <map>

using namespace mirage::runtime;

namespace {

/// Dynamic shared memory above this needs the per-function opt-in.
constexpr int64_t defaultSharedMemoryLimit = 48 * 1024;

std::string launchName(const Function &function, size_t index,
                       const Launch &launch) {
  return function.name + ": launch " + std::to_string(index) + " (" +
         (launch.library ? "library matmul" : "kernel " + launch.kernel) + ")";
}

Expected<int> deviceAttribute(CUdevice_attribute attribute, CUdevice device) {
  int value = 0;
  if (Error error = checkDriver(cuDeviceGetAttribute(&value, attribute, device),
                                "cuDeviceGetAttribute"))
    return error;
  return value;
}

Expected<int> functionAttribute(CUfunction_attribute attribute,
                                CUfunction function) {
  int value = 0;
  if (Error error = checkDriver(cuFuncGetAttribute(&value, attribute, function),
                                "cuFuncGetAttribute"))
    return error;
  return value;
}

/// Encodes into `descriptor` the TMA descriptor of `map.tensor` at
/// `pointer` for copies of `map.box`: the dimensions innermost first, the
/// strides of all but the innermost in bytes, the box swizzled as `map`
/// says, no interleave.
Error encodeTensorMap(CUtensorMap &descriptor, const TensorMap &map,
                      CUdeviceptr pointer) {
  constexpr size_t maxRank = 5;
  const TensorType &tensor = map.tensor;
  size_t rank = tensor.shape.size();
  cuuint64_t dims[maxRank], strides[maxRank];
  cuuint32_t box[maxRank], elementStrides[maxRank];
  for (size_t d = 0; d < rank; ++d) {
    size_t from = rank - 1 - d;
    dims[d] = tensor.shape[from];
    box[d] = static_cast<cuuint32_t>(map.box[from]);
    elementStrides[d] = 1;
    if (d != 0)
      strides[d - 1] = tensor.strides[from] * dtypeSize(tensor.dtype);
  }
  CUtensorMapSwizzle swizzle = map.swizzle == 128  ? CU_TENSOR_MAP_SWIZZLE_128B
                               : map.swizzle == 64 ? CU_TENSOR_MAP_SWIZZLE_64B
                               : map.swizzle == 32 ? CU_TENSOR_MAP_SWIZZLE_32B
                                                   : CU_TENSOR_MAP_SWIZZLE_NONE;
  CUtensorMapDataType type =
      tensor.dtype == DType::F16    ? CU_TENSOR_MAP_DATA_TYPE_FLOAT16
      : tensor.dtype == DType::BF16 ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
                                    : CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
  return checkDriver(
      cuTensorMapEncodeTiled(&descriptor, type, static_cast<cuuint32_t>(rank),
                             reinterpret_cast<void *>(pointer), dims, strides,
                             box, elementStrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                             swizzle, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                             CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
      "cuTensorMapEncodeTiled");
}

std::string dims(const std::array<int64_t, 3> &extents) {
  return "[" + std::to_string(extents[0]) + ", " + std::to_string(extents[1]) +
         ", " + std::to_string(extents[2]) + "]";
}

/// Checks `launch` of `function` against the shape its kernel was compiled
/// for on `chip` (its arguments for `chip` are its parameters there): the
/// same grid and block, and every argument bound to at least the bytes the
/// kernel reads or writes. Offsets and extents are compiled in, so anything
/// else would make the kernel touch memory outside its buffers.
Error checkLaunchShape(const Function &function, const Launch &launch,
                       const LaunchShape &shape, const std::string &chip) {
  std::array<int64_t, 3> grid, block;
  std::copy(launch.grid.begin(), launch.grid.end(), grid.begin());
  std::copy(launch.block.begin(), launch.block.end(), block.begin());
  if (grid != shape.grid || block != shape.block)
    return Error(ErrorCode::InvalidBundle,
                 "the plan launches a grid of " + dims(grid) + " blocks of " +
                     dims(block) + " threads; the " + chip +
                     " kernel was compiled for " + dims(shape.grid) +
                     " blocks of " + dims(shape.block));
  size_t parameter = 0;
  for (const LaunchArg &arg : launch.args) {
    if (!arg.chip.empty() && arg.chip != chip)
      continue;
    if (parameter >= shape.argumentBytes.size())
      return Error(ErrorCode::InvalidBundle,
                   "the " + chip + " PTX records the bytes of " +
                       std::to_string(shape.argumentBytes.size()) +
                       " parameters; the kernel takes more");
    int64_t needed = shape.argumentBytes[parameter];
    int64_t bound = function.getBoundBytes(arg);
    if (bound < needed)
      return Error(ErrorCode::InvalidBundle,
                   "argument " + std::to_string(parameter) + " is bound to " +
                       std::to_string(bound) + " bytes; the " + chip +
                       " kernel was compiled for " + std::to_string(needed));
    ++parameter;
  }
  return Error::success();
}

} // namespace

Expected<std::unique_ptr<Bundle>>
Bundle::load(const std::string &directory, int device, std::string_view chip) {
  // readPlan and readPtx name the bundle in their messages; the other steps
  // are located here.
  Expected<Plan> plan = readPlan(directory);
  if (!plan)
    return plan.takeError();
  auto located = [&](const Error &error) {
    return Error(error.code(), "bundle " + directory + ": " + error.message());
  };
  if (Error error = checkDriver(cuInit(0), "cuInit"))
    return located(error);

  std::unique_ptr<Bundle> bundle(new Bundle());
  bundle->bundlePlan = std::move(*plan);
  bundle->bundleDirectory = directory;
  if (Error error = bundle->bindContext(device))
    return located(error);
  ContextScope scope;
  if (Error error = scope.enter(bundle->bundleContext))
    return located(error);
  if (Error error = bundle->queryDevice())
    return located(error);
  Expected<std::string> selected =
      selectChip(bundle->bundlePlan, bundle->deviceInfo, chip);
  if (!selected)
    return located(selected.error());
  bundle->bundleChip = *selected;
  Expected<std::string> ptx = readPtx(directory, bundle->bundlePlan, *selected);
  if (!ptx)
    return ptx.takeError();
  if (Error error = bundle->loadModule(*ptx))
    return located(error);
  if (Error error = bundle->prepareKernels())
    return located(error);
  if (Error error = bundle->prepareLibrary())
    return located(error);
  if (Error error = bundle->allocateBuffers())
    return located(error);
  return bundle;
}

Bundle::~Bundle() {
  if (!bundleContext)
    return;
  // Failures here (e.g. a driver already shut down at process exit) leave
  // nothing to recover, so they are ignored.
  {
    ContextScope scope;
    if (!scope.enter(bundleContext)) {
      matmuls.reset();
      for (const LoadedFunction &function : loaded)
        for (CUdeviceptr buffer : function.buffers)
          (void)cuMemFree(buffer);
      if (module)
        (void)cuModuleUnload(module);
    }
  }
  if (retainedPrimary)
    (void)cuDevicePrimaryCtxRelease(cuDevice);
}

Error Bundle::bindContext(int device) {
  CUcontext current = nullptr;
  if (Error error = checkDriver(cuCtxGetCurrent(&current), "cuCtxGetCurrent"))
    return error;
  CUdevice currentDevice = -1;
  if (current)
    if (Error error =
            checkDriver(cuCtxGetDevice(&currentDevice), "cuCtxGetDevice"))
      return error;

  int count = 0;
  if (Error error = checkDriver(cuDeviceGetCount(&count), "cuDeviceGetCount"))
    return error;
  int ordinal = device;
  if (device < 0) {
    ordinal = 0;
    for (int i = 0; current && i < count; ++i) {
      CUdevice candidate = 0;
      if (Error error = checkDriver(cuDeviceGet(&candidate, i), "cuDeviceGet"))
        return error;
      if (candidate == currentDevice)
        ordinal = i;
    }
  }
  if (ordinal >= count)
    return Error(ErrorCode::InvalidArgument,
                 "device " + std::to_string(ordinal) + " does not exist (" +
                     std::to_string(count) + " CUDA devices)");
  if (Error error = checkDriver(cuDeviceGet(&cuDevice, ordinal), "cuDeviceGet"))
    return error;
  deviceInfo.ordinal = ordinal;

  CUcontext primary = nullptr;
  if (Error error = checkDriver(cuDevicePrimaryCtxRetain(&primary, cuDevice),
                                "cuDevicePrimaryCtxRetain"))
    return error;
  if (current && currentDevice == cuDevice && current != primary) {
    // A context the caller created: use it, and keep no primary reference.
    (void)cuDevicePrimaryCtxRelease(cuDevice);
    bundleContext = current;
  } else {
    retainedPrimary = true;
    bundleContext = primary;
  }
  return Error::success();
}

Error Bundle::queryDevice() {
  char name[256] = {};
  if (Error error = checkDriver(cuDeviceGetName(name, sizeof(name), cuDevice),
                                "cuDeviceGetName"))
    return error;
  deviceInfo.name = name;
  Expected<int> major =
      deviceAttribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, cuDevice);
  if (!major)
    return major.takeError();
  Expected<int> minor =
      deviceAttribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, cuDevice);
  if (!minor)
    return minor.takeError();
  deviceInfo.major = *major;
  deviceInfo.minor = *minor;
  return Error::success();
}

Error Bundle::loadModule(const std::string &ptx) {
  std::string log(16384, '\0');
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {
      log.data(), reinterpret_cast<void *>(static_cast<uintptr_t>(log.size()))};
  CUresult result =
      cuModuleLoadDataEx(&module, ptx.c_str(), 2, options, values);
  if (result == CUDA_SUCCESS) {
    ptxKernels = scanPtxKernels(ptx);
    return Error::success();
  }
  module = nullptr;
  log.resize(log.find('\0'));
  Error error = checkDriver(result, "cuModuleLoadDataEx");
  return Error(error.code(), bundlePlan.ptx.at(bundleChip) + ": " +
                                 error.message() +
                                 (log.empty() ? "" : "\n" + log));
}

Error Bundle::prepareKernels() {
  Expected<int> optIn = deviceAttribute(
      CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, cuDevice);
  if (!optIn)
    return optIn.takeError();

  // Kernel attributes are per kernel, so gather what all launches need.
  struct KernelNeeds {
    CUfunction handle = nullptr;
    int64_t sharedMemory = 0;
    bool nonPortableCluster = false;
  };
  std::map<std::string, KernelNeeds> kernels;
  loaded.resize(bundlePlan.functions.size());
  // Programmatic dependent launch, unless $MIRAGE_PDL is "0".
  const char *pdl = std::getenv("MIRAGE_PDL");
  bool overlap = !pdl || std::string_view(pdl) != "0";
  for (size_t f = 0; f < bundlePlan.functions.size(); ++f) {
    const Function &function = bundlePlan.functions[f];
    for (size_t l = 0; l < function.launches.size(); ++l) {
      const Launch &launch = function.launches[l];
      auto scanned = ptxKernels.find(launch.kernel);
      loaded[f].overlapsPrevious.push_back(
          overlap && function.overlap && !launch.library && l > 0 &&
          !function.launches[l - 1].library && scanned != ptxKernels.end() &&
          scanned->second.waitsForGridDependencies);
      if (launch.library) {
        loaded[f].kernels.push_back(nullptr);
        continue;
      }
      // A launch passes one argument per parameter of its kernel; the plan
      // cannot be trusted to, and the driver does not check.
      size_t arguments = std::count_if(
          launch.args.begin(), launch.args.end(), [&](const LaunchArg &arg) {
            return arg.chip.empty() || arg.chip == bundleChip;
          });
      if (scanned != ptxKernels.end() &&
          arguments != scanned->second.parameters)
        return Error(ErrorCode::InvalidBundle,
                     launchName(function, l, launch) + ": the plan passes " +
                         std::to_string(arguments) + " arguments on " +
                         bundleChip + ", the kernel takes " +
                         std::to_string(scanned->second.parameters));
      if (scanned != ptxKernels.end() && scanned->second.launchShape)
        if (Error error = checkLaunchShape(
                function, launch, *scanned->second.launchShape, bundleChip))
          return Error(error.code(), launchName(function, l, launch) + ": " +
                                         error.message());
      KernelNeeds &needs = kernels[launch.kernel];
      if (!needs.handle) {
        CUresult result =
            cuModuleGetFunction(&needs.handle, module, launch.kernel.c_str());
        if (result == CUDA_ERROR_NOT_FOUND)
          return Error(ErrorCode::InvalidBundle,
                       launchName(function, l, launch) + ": the " + bundleChip +
                           " PTX has no kernel of that name");
        if (Error error = checkDriver(result, "cuModuleGetFunction"))
          return Error(error.code(), launchName(function, l, launch) + ": " +
                                         error.message());
      }
      uint32_t shared = launch.getSharedMemory(bundleChip);
      needs.sharedMemory = std::max<int64_t>(needs.sharedMemory, shared);
      needs.nonPortableCluster |= launch.nonPortableCluster;
      loaded[f].kernels.push_back(needs.handle);

      Expected<int> staticShared =
          functionAttribute(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, needs.handle);
      if (!staticShared)
        return staticShared.takeError();
      if (int64_t(shared) + *staticShared > *optIn)
        return Error(
            ErrorCode::InvalidBundle,
            launchName(function, l, launch) + ": " + std::to_string(shared) +
                " bytes of dynamic shared memory (plus " +
                std::to_string(*staticShared) + " static) exceed the " +
                std::to_string(*optIn) + " bytes a block may use on device " +
                std::to_string(deviceInfo.ordinal) + " (" + deviceInfo.name +
                ")");
      Expected<int> maxThreads = functionAttribute(
          CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, needs.handle);
      if (!maxThreads)
        return maxThreads.takeError();
      int64_t threads =
          int64_t(launch.block[0]) * launch.block[1] * launch.block[2];
      if (threads > *maxThreads)
        return Error(
            ErrorCode::InvalidBundle,
            launchName(function, l, launch) + ": a block of " +
                std::to_string(threads) + " threads exceeds the " +
                std::to_string(*maxThreads) + " this kernel allows on device " +
                std::to_string(deviceInfo.ordinal) + " (registers per thread)");
    }
  }

  for (const auto &[name, needs] : kernels) {
    Expected<int> staticShared =
        functionAttribute(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, needs.handle);
    if (!staticShared)
      return staticShared.takeError();
    if (needs.sharedMemory + *staticShared > defaultSharedMemoryLimit)
      if (Error error = checkDriver(
              cuFuncSetAttribute(
                  needs.handle, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                  static_cast<int>(needs.sharedMemory)),
              "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES) of " + name))
        return error;
    if (needs.nonPortableCluster)
      if (Error error = checkDriver(
              cuFuncSetAttribute(
                  needs.handle,
                  CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1),
              "cuFuncSetAttribute(NON_PORTABLE_CLUSTER_SIZE_ALLOWED) of " +
                  name))
        return error;
  }
  return Error::success();
}

Error Bundle::allocateBuffers() {
  for (size_t f = 0; f < bundlePlan.functions.size(); ++f) {
    const Function &function = bundlePlan.functions[f];
    for (size_t b = 0; b < function.buffers.size(); ++b) {
      CUdeviceptr buffer = 0;
      if (Error error = checkDriver(
              cuMemAlloc(&buffer,
                         static_cast<size_t>(function.buffers[b].bytes)),
              "cuMemAlloc"))
        return Error(error.code(),
                     function.name + ": buffer " + std::to_string(b) + " (" +
                         std::to_string(function.buffers[b].bytes) +
                         " bytes): " + error.message());
      loaded[f].buffers.push_back(buffer);
      if (function.buffers[b].zeroed)
        if (Error error = checkDriver(
                cuMemsetD8(buffer, 0,
                           static_cast<size_t>(function.buffers[b].bytes)),
                "cuMemsetD8"))
          return Error(error.code(), function.name + ": buffer " +
                                         std::to_string(b) + ": " +
                                         error.message());
    }
  }
  return Error::success();
}

Error Bundle::checkMemory(const Function &function,
                          const std::vector<TensorArg> &inputs,
                          const std::vector<TensorArg> &outputs,
                          CUstream stream) const {
  auto checkTensor = [&](const std::string &what,
                         const TensorArg &tensor) -> Error {
    std::string prefix = function.name + ": " + what + ": ";
    int ordinal = -1;
    CUresult result = cuPointerGetAttribute(
        &ordinal, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, tensor.data);
    if (result == CUDA_ERROR_INVALID_VALUE)
      return Error(ErrorCode::InvalidArgument,
                   prefix + "not CUDA device memory (a host pointer?)");
    if (Error error = checkDriver(result, "cuPointerGetAttribute"))
      return Error(error.code(), prefix + error.message());
    if (tensor.device != ordinal)
      return Error(
          ErrorCode::InvalidArgument,
          prefix + "described as on device " + std::to_string(tensor.device) +
              ", but its memory is on device " + std::to_string(ordinal));
    if (ordinal != deviceInfo.ordinal)
      return Error(ErrorCode::InvalidArgument,
                   prefix + "on device " + std::to_string(ordinal) +
                       ", but the bundle was loaded for device " +
                       std::to_string(deviceInfo.ordinal));
    return Error::success();
  };
  for (size_t i = 0; i < inputs.size(); ++i)
    if (Error error = checkTensor("input " + std::to_string(i), inputs[i]))
      return error;
  for (size_t i = 0; i < outputs.size(); ++i)
    if (Error error = checkTensor("output " + std::to_string(i), outputs[i]))
      return error;

  CUcontext streamContext = nullptr;
  if (Error error =
          checkDriver(cuStreamGetCtx(stream, &streamContext), "cuStreamGetCtx"))
    return Error(error.code(), function.name + ": stream: " + error.message());
  if (streamContext != bundleContext)
    return Error(ErrorCode::InvalidArgument,
                 function.name +
                     ": the stream belongs to another CUDA "
                     "context than the bundle's (device " +
                     std::to_string(deviceInfo.ordinal) + ")");
  return Error::success();
}

Error Bundle::getTensorMap(const LoadedFunction &state, size_t launch,
                           size_t argument, const TensorMap &map,
                           CUdeviceptr pointer, CUtensorMap &descriptor) const {
  std::lock_guard<std::mutex> lock(tensorMapMutex);
  EncodedTensorMap &cached = state.tensorMaps[{launch, argument}];
  if (!cached.encoded || cached.pointer != pointer) {
    cached.encoded = false;
    if (Error error = encodeTensorMap(cached.descriptor, map, pointer))
      return error;
    cached.encoded = true;
    cached.pointer = pointer;
  }
  descriptor = cached.descriptor;
  return Error::success();
}

Error Bundle::prepareLibrary() {
  // Two library calls in a row that do not depend on each other run at
  // once: when together they leave SMs idle ($MIRAGE_SIDE_STREAM unset or
  // "1"), always ("all"), or never ("0").
  const char *sideStream = std::getenv("MIRAGE_SIDE_STREAM");
  std::string_view side = sideStream ? sideStream : "1";
  if (side != "0" && side != "1" && side != "all")
    return Error(ErrorCode::InvalidArgument,
                 "MIRAGE_SIDE_STREAM: expected 0, 1 or all, got '" +
                     std::string(side) + "'");
  bool beside = side != "0";
  for (size_t f = 0; f < bundlePlan.functions.size(); ++f)
    loaded[f].runsBesideNext.assign(bundlePlan.functions[f].launches.size(),
                                    false);
  bool anyLibrary = std::any_of(
      bundlePlan.functions.begin(), bundlePlan.functions.end(),
      [](const Function &function) {
        return std::any_of(
            function.launches.begin(), function.launches.end(),
            [](const Launch &launch) { return bool(launch.library); });
      });
  if (!anyLibrary)
    return Error::success();
  Expected<int> multiprocessors =
      deviceAttribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, cuDevice);
  if (!multiprocessors)
    return multiprocessors.takeError();
  bool anyBeside = false;
  for (size_t f = 0; f < bundlePlan.functions.size(); ++f) {
    std::vector<bool> &runsBeside = loaded[f].runsBesideNext;
    for (size_t l = 0; beside && l + 1 < runsBeside.size(); ++l)
      if ((l == 0 || !runsBeside[l - 1]) &&
          bundlePlan.functions[f].canRunBesideNext(
              l, side == "all" ? std::numeric_limits<int>::max()
                               : *multiprocessors))
        anyBeside = runsBeside[l] = true;
  }
  Expected<std::unique_ptr<MatmulLibrary>> created =
      MatmulLibrary::create(anyBeside);
  if (!created)
    return created.takeError();
  matmuls = std::move(*created);
  return Error::success();
}

bool Bundle::mayOverlap(std::string_view name) const {
  Expected<const Function *> found = bundlePlan.lookup(name);
  if (!found) {
    (void)found.takeError();
    return false;
  }
  const std::vector<bool> &overlaps =
      loaded[*found - bundlePlan.functions.data()].overlapsPrevious;
  return std::find(overlaps.begin(), overlaps.end(), true) != overlaps.end();
}

Error Bundle::run(std::string_view name, const std::vector<TensorArg> &inputs,
                  const std::vector<TensorArg> &outputs, CUstream stream,
                  bool overlap) const {
  Expected<const Function *> found = bundlePlan.lookup(name);
  if (!found)
    return found.takeError();
  const Function &function = **found;
  if (Error error = checkArguments(function, inputs, outputs))
    return error;
  ContextScope scope;
  if (Error error = scope.enter(bundleContext))
    return error;
  if (Error error = checkMemory(function, inputs, outputs, stream))
    return error;

  const LoadedFunction &state = loaded[&function - bundlePlan.functions.data()];
  std::vector<CUdeviceptr> pointers;
  std::vector<CUtensorMap> tensorMaps;
  std::vector<void *> parameters;
  for (size_t l = 0; l < function.launches.size(); ++l) {
    const Launch &launch = function.launches[l];
    // Reserved so that the parameters' addresses stay valid.
    pointers.clear();
    pointers.reserve(launch.args.size());
    tensorMaps.clear();
    tensorMaps.reserve(launch.args.size());
    parameters.clear();
    auto bound = [&](const LaunchArg &arg) {
      return arg.kind == ArgKind::Input    ? inputs[arg.index].data
             : arg.kind == ArgKind::Output ? outputs[arg.index].data
                                           : state.buffers[arg.index];
    };
    auto operandsOf = [&](const Launch &call) {
      return MatmulLibrary::Operands{
          bound(call.args[0]), bound(call.args[1]), bound(call.args[2]),
          call.library->addend ? bound(call.args[3]) : CUdeviceptr(0)};
    };
    if (launch.library && state.runsBesideNext[l]) {
      const Launch &next = function.launches[l + 1];
      if (Error error =
              matmuls->runBeside(*launch.library, operandsOf(launch),
                                 *next.library, operandsOf(next), stream))
        return Error(error.code(), launchName(function, l, launch) + " and " +
                                       std::to_string(l + 1) + ": " +
                                       error.message());
      ++l;
      continue;
    }
    if (launch.library) {
      if (Error error =
              matmuls->run(*launch.library, operandsOf(launch), stream))
        return Error(error.code(),
                     launchName(function, l, launch) + ": " + error.message());
      continue;
    }
    for (size_t a = 0; a < launch.args.size(); ++a) {
      const LaunchArg &arg = launch.args[a];
      if (!arg.chip.empty() && arg.chip != bundleChip)
        continue;
      CUdeviceptr pointer = bound(arg);
      if (!arg.tensorMap) {
        pointers.push_back(pointer);
        parameters.push_back(&pointers.back());
        continue;
      }
      if (Error error = getTensorMap(state, l, a, *arg.tensorMap, pointer,
                                     tensorMaps.emplace_back()))
        return Error(error.code(),
                     launchName(function, l, launch) + ": " + error.message());
      parameters.push_back(&tensorMaps.back());
    }

    CUlaunchConfig config = {};
    config.gridDimX = launch.grid[0];
    config.gridDimY = launch.grid[1];
    config.gridDimZ = launch.grid[2];
    config.blockDimX = launch.block[0];
    config.blockDimY = launch.block[1];
    config.blockDimZ = launch.block[2];
    config.sharedMemBytes = launch.getSharedMemory(bundleChip);
    config.hStream = stream;
    CUlaunchAttribute attributes[2] = {};
    if (launch.usesClusters()) {
      CUlaunchAttribute &cluster = attributes[config.numAttrs++];
      cluster.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
      cluster.value.clusterDim.x = launch.cluster[0];
      cluster.value.clusterDim.y = launch.cluster[1];
      cluster.value.clusterDim.z = launch.cluster[2];
    }
    if (overlap && state.overlapsPrevious[l]) {
      // The kernel waits (griddepcontrol.wait) before touching memory, so
      // it may launch while the one before it finishes.
      CUlaunchAttribute &serialization = attributes[config.numAttrs++];
      serialization.id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
      serialization.value.programmaticStreamSerializationAllowed = 1;
    }
    config.attrs = config.numAttrs ? attributes : nullptr;
    if (Error error = checkDriver(cuLaunchKernelEx(&config, state.kernels[l],
                                                   parameters.data(), nullptr),
                                  "cuLaunchKernelEx"))
      return Error(error.code(),
                   launchName(function, l, launch) + ": " + error.message());
  }
  return Error::success();
}
