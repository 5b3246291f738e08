//===- Ptx.h - What the runtime reads from a bundle's PTX -------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Facts the runtime takes from the PTX text itself rather than the plan, so
// that bundles written before a fact existed keep running as they were
// compiled. No driver calls.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_RUNTIME_PTX_H
#define MIRAGE_RUNTIME_PTX_H

#include <set>
#include <string>
#include <string_view>

namespace mirage::runtime {

/// The names of the kernels (`.entry`) of `ptx` whose bodies execute
/// `griddepcontrol.wait`: they wait for the kernels before them in the
/// stream to finish before reading memory, so they may be launched with
/// programmatic stream serialization, overlapping their predecessor.
std::set<std::string> findGridDependentKernels(std::string_view ptx);

} // namespace mirage::runtime

#endif // MIRAGE_RUNTIME_PTX_H
