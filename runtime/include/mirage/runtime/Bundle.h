//===- Bundle.h - A loaded bundle -------------------------------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A bundle loaded into one CUDA context: its PTX JIT-compiled into a module,
// the kernels' attributes set, and every function's intermediate buffers
// allocated. Running a function then only checks arguments and enqueues its
// launches, so it may be captured into a CUDA graph.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_RUNTIME_BUNDLE_H
#define MIRAGE_RUNTIME_BUNDLE_H

#include "mirage/runtime/Arguments.h"
#include "mirage/runtime/Error.h"
#include "mirage/runtime/Plan.h"
#include "mirage/runtime/Ptx.h"

#include <cuda.h>

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace mirage::runtime {

class MatmulLibrary;

/// A bundle loaded for one device. Runs of different functions may proceed
/// concurrently; runs of one function share its intermediate buffers, so
/// they must be ordered (one stream, or synchronised streams).
class Bundle {
public:
  /// Loads the bundle in `directory`. With `device` < 0 it uses the current
  /// context, or device 0's primary context when none is current; with
  /// `device` >= 0 it uses the current context if that belongs to `device`,
  /// else `device`'s primary context. It picks the PTX for the device's
  /// chip (or `chip`, if not empty; see selectChip), JIT-compiles it, sets
  /// kernel attributes, checks shared memory and block sizes against the
  /// device, creates a cuBLASLt handle when the plan has library matmuls,
  /// and allocates intermediate buffers.
  static Expected<std::unique_ptr<Bundle>> load(const std::string &directory,
                                                int device = -1,
                                                std::string_view chip = "");

  Bundle(const Bundle &) = delete;
  Bundle &operator=(const Bundle &) = delete;
  /// Frees the buffers, unloads the module, and releases the primary
  /// context if the bundle retained it.
  ~Bundle();

  const Plan &plan() const { return bundlePlan; }
  const std::string &directory() const { return bundleDirectory; }
  /// The chip whose PTX was loaded ("sm_80" or "sm_90a").
  const std::string &chip() const { return bundleChip; }
  const DeviceInfo &device() const { return deviceInfo; }
  /// The context the bundle's module and buffers live in.
  CUcontext context() const { return bundleContext; }

  /// Enqueues the launches of `function` (empty: the only function) on
  /// `stream`, after checking the arguments (checkArguments) and that every
  /// tensor lives on the bundle's device and the stream in its context.
  /// Kernels that may overlap the one before (mayOverlap) launch to, unless
  /// `overlap` is false (the tuner's timing without it).
  Error run(std::string_view function, const std::vector<TensorArg> &inputs,
            const std::vector<TensorArg> &outputs, CUstream stream,
            bool overlap = true) const;

  /// Whether a kernel of `function` (which must exist) launches to overlap
  /// the one before it: programmatic dependent launch, unless
  /// $MIRAGE_PDL is "0" or the plan's function says "overlap": false.
  bool mayOverlap(std::string_view function) const;

private:
  /// A TMA descriptor as last encoded, and the memory it describes.
  struct EncodedTensorMap {
    bool encoded = false;
    CUdeviceptr pointer = 0;
    CUtensorMap descriptor;
  };

  /// The loaded state of one plan function, index for index.
  struct LoadedFunction {
    /// One kernel handle per launch.
    std::vector<CUfunction> kernels;
    /// Per launch: whether it may overlap the launch before it
    /// (programmatic stream serialization): its kernel waits for its grid
    /// dependencies (scanPtxKernels), that launch is a kernel of the same
    /// function, and neither $MIRAGE_PDL nor the plan turns it off.
    std::vector<bool> overlapsPrevious;
    /// Per launch: whether it is a library call that runs on a side stream
    /// beside the next launch, a library call independent of it
    /// (MatmulLibrary::runBeside).
    std::vector<bool> runsBesideNext;
    /// One allocation per plan buffer.
    std::vector<CUdeviceptr> buffers;
    /// The descriptors of the TMA descriptor arguments, by (launch,
    /// argument): encoded on first use and again when the memory bound to
    /// the argument changes (guarded by tensorMapMutex).
    mutable std::map<std::pair<size_t, size_t>, EncodedTensorMap> tensorMaps;
  };

  Bundle() = default;
  Error bindContext(int device);
  Error queryDevice();
  /// JIT-compiles `ptx` and reads what it says of its kernels
  /// (scanPtxKernels).
  Error loadModule(const std::string &ptx);
  Error prepareKernels();
  Error prepareLibrary();
  Error allocateBuffers();
  /// Copies into `descriptor` the TMA descriptor of argument `argument` of
  /// launch `launch` of `state` for the memory at `pointer`, encoding it
  /// unless the last one was for that memory.
  Error getTensorMap(const LoadedFunction &state, size_t launch,
                     size_t argument, const TensorMap &map, CUdeviceptr pointer,
                     CUtensorMap &descriptor) const;
  Error checkMemory(const Function &function,
                    const std::vector<TensorArg> &inputs,
                    const std::vector<TensorArg> &outputs,
                    CUstream stream) const;

  Plan bundlePlan;
  std::string bundleDirectory;
  std::string bundleChip;
  DeviceInfo deviceInfo;
  CUdevice cuDevice = 0;
  CUcontext bundleContext = nullptr;
  bool retainedPrimary = false;
  CUmodule module = nullptr;
  /// What the PTX says of its kernels, by name.
  std::map<std::string, PtxKernel> ptxKernels;
  std::vector<LoadedFunction> loaded;
  mutable std::mutex tensorMapMutex;
  /// Runs the library matmuls; created when the plan has any.
  std::unique_ptr<MatmulLibrary> matmuls;
};

} // namespace mirage::runtime

#endif // MIRAGE_RUNTIME_BUNDLE_H
