//===- Bundle.h - PTX + launch-plan bundles ---------------------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A bundle is what the runtime loads (docs/Runtime.md): one PTX
// file per target chip and a plan.json with each function's arguments,
// intermediate buffers and launch list, plus the kernel-graph program it
// computes, for testing.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_TARGET_BUNDLE_H
#define MIRAGE_TARGET_BUNDLE_H

#include "Mirage/Conversion/CodegenOptions.h"
#include "mlir/IR/BuiltinOps.h"

#include <string>
#include <vector>

namespace mlir::mirage {

/// How `writeBundle` compiles.
struct BundleOptions {
  /// Target chips; empty means every chip the program can run on (sm_80 and
  /// sm_90a, or only sm_90a for programs with thread-block clusters).
  std::vector<std::string> chips;
  /// Functions to bundle; empty means every function with Mirage kernel ops.
  std::vector<std::string> functions;
  /// Kernel-graph references for functions made of graph_defs: the function
  /// of the same name, or the only function. May be null.
  ModuleOp reference;
  /// How the kernels are generated. `writeBundle` sets `chip` and
  /// `maxSharedMemory` for each target chip: the chip, and the smallest
  /// shared-memory limit of the bundle's chips.
  CodegenOptions codegen;
};

/// Compiles the functions of `module` that hold Mirage kernel ops (or those
/// `options` names) and writes the bundle into `directory` (created if
/// needed). Each function's plan records the program it computes and, when
/// one is known, its kernel-graph reference.
LogicalResult writeBundle(ModuleOp module, StringRef directory,
                          const BundleOptions &options);

} // namespace mlir::mirage

#endif // MIRAGE_TARGET_BUNDLE_H
