//===- Plan.h - The plan.json of a bundle -----------------------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A bundle is a directory with plan.json and one PTX file per chip
// (docs/Runtime.md). This header models plan.json and reads it with full
// validation. Nothing here touches the CUDA driver, so all of it can be
// tested without a GPU.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_RUNTIME_PLAN_H
#define MIRAGE_RUNTIME_PLAN_H

#include "mirage/runtime/Error.h"

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mirage::runtime {

/// Element types of bundle tensors.
enum class DType { F16, BF16, F32 };

/// The plan.json spelling of `dtype` ("f16", "bf16", "f32").
std::string_view dtypeName(DType dtype);

/// The size in bytes of one element of `dtype`.
int64_t dtypeSize(DType dtype);

/// Parses a plan.json dtype spelling.
std::optional<DType> parseDType(std::string_view name);

/// The chips a bundle may carry PTX for, in plan.json spelling.
inline constexpr std::array<std::string_view, 2> knownChips = {"sm_80",
                                                               "sm_90a"};

/// The row-major contiguous strides, in elements, of `shape`.
std::vector<int64_t> contiguousStrides(const std::vector<int64_t> &shape);

/// Formats a shape or stride list as "[2, 256, 64]".
std::string formatList(const std::vector<int64_t> &values);

/// The type of a function input or output: a dense row-major tensor.
struct TensorType {
  std::vector<int64_t> shape;
  DType dtype = DType::F32;
  /// Always the contiguous strides of `shape`, in elements.
  std::vector<int64_t> strides;

  int64_t numElements() const;
  int64_t numBytes() const { return numElements() * dtypeSize(dtype); }
};

/// An intermediate device buffer the runtime allocates for a function.
struct BufferSpec {
  int64_t bytes = 0;
  /// Whether the runtime zeroes it once, when it allocates it: the counters
  /// of a kernel that runs a combine tail, which every launch leaves zero.
  bool zeroed = false;
};

/// What a kernel parameter points to.
enum class ArgKind { Input, Output, Buffer };

/// A TMA descriptor parameter: the tensor the bound memory holds and the
/// box its copies move (outermost dimension first).
struct TensorMap {
  TensorType tensor;
  std::vector<int64_t> box;
  /// 0: the box lands dense in shared memory; 32, 64 or 128 (the bytes of
  /// its rows): swizzled (CU_TENSOR_MAP_SWIZZLE_<swizzle>B).
  int64_t swizzle = 0;
};

/// One kernel parameter: a 64-bit device pointer to an input, output or
/// buffer of the function, or the TMA descriptor (a CUtensorMap passed by
/// value) of the tensor it holds.
struct LaunchArg {
  ArgKind kind = ArgKind::Input;
  int64_t index = 0;
  /// Set for a TMA descriptor.
  std::optional<TensorMap> tensorMap;
  /// The only chip whose kernels take the parameter; empty: every chip.
  std::string chip;
};

/// A batched matmul the runtime runs with cuBLASLt instead of a kernel
/// (docs/Runtime.md, "Library matmuls"): for each of `batch` matrices in a
/// row, args[2] = args[0] (m x k) x args[1] (k x n) [+ args[3]], row-major,
/// summed in f32; the optional addend args[3] is m x n in the result's
/// dtype and is not args[2].
struct LibraryMatmul {
  int64_t batch = 1;
  int64_t m = 1;
  int64_t n = 1;
  int64_t k = 1;
  /// The operands' element type.
  DType dtype = DType::F16;
  /// The result's element type: the operands' or f32.
  DType resultDType = DType::F16;
  /// Whether args[3] is added to the product (cuBLASLt's beta = 1).
  bool addend = false;

  /// The 128 x 128 tiles of the result: the units of work cuBLASLt's
  /// kernels spread over the SMs.
  int64_t getResultTiles() const;
};

/// How much faster than cuBLASLt's first proposal another algorithm must be,
/// in its fastest timed round, to replace it (0.05: 5%).
constexpr double kMinAlgorithmGain = 0.05;

/// The algorithm a library matmul keeps, given the fastest timed round (ms)
/// of each algorithm cuBLASLt proposed, in its order (negative: it failed):
/// the first proposal, the heuristic's choice and the one PyTorch's cuBLAS
/// calls run, unless another is faster by at least kMinAlgorithmGain, then
/// the fastest; where the first failed, the fastest of the others. -1 when
/// every one failed.
int chooseLibraryAlgorithm(const std::vector<float> &fastestRounds);

/// The pairs of algorithms (indices into each call's proposals) timed for
/// two library calls that run side by side, with `firstCount` and
/// `secondCount` proposals and their own choices `firstChosen` and
/// `secondChosen`: that pair first (chooseLibraryAlgorithm keeps it unless
/// another is clearly faster), then every other pair in order.
std::vector<std::pair<int, int>> getLibraryAlgorithmPairs(int firstCount,
                                                          int firstChosen,
                                                          int secondCount,
                                                          int secondChosen);

/// One step of a function: a kernel launch, or a library call (then
/// `kernel` is empty, `library` is set and only `args` is used).
struct Launch {
  std::string kernel;
  std::optional<LibraryMatmul> library;
  std::array<uint32_t, 3> grid{1, 1, 1};
  std::array<uint32_t, 3> block{1, 1, 1};
  std::array<uint32_t, 3> cluster{1, 1, 1};
  bool nonPortableCluster = false;
  /// Dynamic shared memory in bytes, the same for every chip's kernel.
  uint32_t sharedMemory = 0;
  /// Dynamic shared memory in bytes by chip, where the chips' kernels differ
  /// (then it has every chip of the bundle and `sharedMemory` is unused).
  std::map<std::string, uint32_t> chipSharedMemory;
  std::vector<LaunchArg> args;

  /// True when the launch uses thread-block clusters (cluster != [1, 1, 1]).
  bool usesClusters() const;
  /// The dynamic shared memory of `chip`'s kernel, in bytes.
  uint32_t getSharedMemory(const std::string &chip) const;
};

/// How a function takes part in measured selection (docs/Runtime.md,
/// "Tuning"): the functions of a bundle that share a key are one program,
/// as written and as the search's candidates, which mirage-tune times
/// against each other.
struct TuningInfo {
  /// The SHA-256 of the canonical reference program: 64 lowercase hex
  /// digits.
  std::string key;
  /// The version of the compiler that wrote the function.
  std::string compiler;
  /// -1 for the program as written (the group's reference); 0, 1, ... for
  /// the search's candidates, 0 being the cost model's favourite.
  int64_t candidate = -1;
};

/// Whether `text` is a tuning key: 64 lowercase hex digits.
bool isTuningKey(std::string_view text);

/// One callable function of a bundle.
struct Function {
  std::string name;
  std::vector<TensorType> inputs;
  std::vector<TensorType> outputs;
  std::vector<BufferSpec> buffers;
  /// Run in order on one stream.
  std::vector<Launch> launches;
  /// Whether plan.json carries a "reference" program (used by tests only;
  /// like the optional "program", the runtime does not interpret it).
  bool hasReference = false;
  /// The "program" object (the kernel graph that was compiled) as compact
  /// JSON text (json::write), or empty when plan.json has none. Not
  /// interpreted; mirage-tune copies the winner's into the tuning database.
  std::string program;
  /// Set when plan.json's function has a "tuning" object.
  std::optional<TuningInfo> tuning;
  /// Whether its kernels may launch to overlap the one before
  /// (programmatic dependent launch); plan.json's optional "overlap",
  /// false where the tuner measured the function faster without it.
  bool overlap = true;

  /// The bytes of the memory `arg` is bound to: its input's, output's or
  /// buffer's (the index must be valid, as in a parsed plan).
  int64_t getBoundBytes(const LaunchArg &arg) const;
  /// Whether launches `l` and `l + 1` are library calls worth running at
  /// once on a device of `multiprocessors` SMs, and free to: together their
  /// result tiles fit in one wave, so each alone would leave SMs idle (two
  /// calls that each fill the device only contend), and neither writes (its
  /// result, args[2]) memory that the other reads or writes. Memory is
  /// named by argument binding; distinct bindings are distinct memory (the
  /// runtime refuses outputs that overlap inputs).
  bool canRunBesideNext(size_t l, int multiprocessors) const;
};

/// A parsed and validated plan.json.
struct Plan {
  /// Chip name ("sm_80", "sm_90a") to PTX file name next to plan.json.
  std::map<std::string, std::string> ptx;
  std::vector<Function> functions;

  /// The function named `name`, or the only function when `name` is empty.
  /// Fails with InvalidArgument naming the available functions.
  Expected<const Function *> lookup(std::string_view name) const;
};

/// Parses and validates plan.json text. Failures are InvalidBundle errors
/// whose message names the field, e.g. "plan.json:
/// functions[0].launches[2].grid: expected 3 positive integers".
Expected<Plan> parsePlan(std::string_view text);

/// Reads `directory`/plan.json, validates it, and checks that every PTX file
/// it names exists next to it.
Expected<Plan> readPlan(const std::string &directory);

/// Reads the PTX text for `chip` (a key of `plan.ptx`) from `directory`.
Expected<std::string> readPtx(const std::string &directory, const Plan &plan,
                              const std::string &chip);

/// What chip selection needs to know of a device.
struct DeviceInfo {
  int ordinal = 0;
  std::string name;
  int major = 0;
  int minor = 0;
};

/// Whether PTX for `chip` runs on `device`: sm_90a PTX only on compute
/// capability 9.x, sm_80 PTX on 8.0 and newer (it is JIT-compiled forward).
bool chipRunsOn(std::string_view chip, const DeviceInfo &device);

/// The chip whose PTX to load for `device`. With `requested` empty:
/// compute capability 9.x takes "sm_90a", 8.x and 10.0 or newer take
/// "sm_80". A requested chip (e.g. sm_80 on an H100, to test that PTX) must
/// be in the bundle and run on the device. Fails with InvalidBundle naming
/// the device and the bundle's chips.
Expected<std::string> selectChip(const Plan &plan, const DeviceInfo &device,
                                 std::string_view requested = "");

} // namespace mirage::runtime

#endif // MIRAGE_RUNTIME_PLAN_H
