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

#include "Mirage/Conversion/PipelineDefaults.h"
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
  /// Whether f16 matmuls run on tensor cores where they fit (the
  /// `tensor-cores` option of mirage-to-ptx-pipeline).
  bool tensorCores = true;
  /// Whether f16 matmuls of the sm_90a kernels run on `wgmma` where they fit
  /// (the `wgmma` option of mirage-to-ptx-pipeline).
  bool wgmma = false;
  /// Whether the sm_90a kernels copy staged tiles with the TMA unit (the
  /// `tma` option of mirage-to-ptx-pipeline).
  bool tma = true;
  /// Software-pipelining stages of loop-varying tiles (the `stages` option
  /// of mirage-to-ptx-pipeline; below 2, none).
  int64_t stages = kDefaultPipelineStages;
};

/// Compiles the functions of `module` that hold Mirage kernel ops (or those
/// `options` names) and writes the bundle into `directory` (created if
/// needed). Each function's plan records the program it computes and, when
/// one is known, its kernel-graph reference.
LogicalResult writeBundle(ModuleOp module, StringRef directory,
                          const BundleOptions &options);

/// The `mirage-translate --mirage-to-bundle INPUT -o DIR` driver.
int runBundleMain(int argc, char **argv);

} // namespace mlir::mirage

#endif // MIRAGE_TARGET_BUNDLE_H
