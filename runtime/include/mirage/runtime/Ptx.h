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

#include <cstddef>
#include <map>
#include <string>
#include <string_view>

namespace mirage::runtime {

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
};

/// The kernels of `ptx` by name. Text that is no PTX gives what it holds of
/// `.entry` directives (usually nothing).
std::map<std::string, PtxKernel> scanPtxKernels(std::string_view ptx);

} // namespace mirage::runtime

#endif // MIRAGE_RUNTIME_PTX_H
