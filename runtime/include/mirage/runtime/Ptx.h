//===- Ptx.h - What the runtime reads from a bundle's PTX -------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Facts the runtime takes from the PTX text itself rather than the plan: a
// plan cannot vouch for the kernels it launches (it may be damaged), and
// bundles written before a fact existed keep running as they were compiled.
// No driver calls.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_RUNTIME_PTX_H
#define MIRAGE_RUNTIME_PTX_H

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mirage::runtime {

/// What a kernel was compiled for: the compiler bakes its grid, block and
/// buffer extents into the code, and records them next to it in the PTX as
/// the constant `<kernel>__launch` (i64s: grid x, y, z; block x, y, z; then
/// the bytes of each buffer parameter, in parameter order).
struct LaunchShape {
  std::array<int64_t, 3> grid{};
  std::array<int64_t, 3> block{};
  std::vector<int64_t> argumentBytes;
};

/// What the PTX says of one kernel (`.entry`).
struct PtxKernel {
  /// The `.param`s it takes: one per launch argument (a pointer, or a TMA
  /// descriptor passed by value).
  size_t parameters = 0;
  /// Whether its body executes `griddepcontrol.wait`: it waits for the
  /// kernels before it in the stream to finish before reading memory, so it
  /// may be launched with programmatic stream serialization, overlapping
  /// its predecessor.
  bool waitsForGridDependencies = false;
  /// Its `<kernel>__launch` constant, if the PTX has a well-formed one.
  std::optional<LaunchShape> launchShape;
};

/// The kernels of `ptx` by name. Text that is no PTX gives what it holds of
/// `.entry` directives (usually nothing).
std::map<std::string, PtxKernel> scanPtxKernels(std::string_view ptx);

} // namespace mirage::runtime

#endif // MIRAGE_RUNTIME_PTX_H
