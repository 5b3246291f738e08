//===- CodegenOptions.h - The code generator's options ----------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// How kernel graphs are compiled to PTX: what `mirage-to-ptx-pipeline`, the
// bundle writer and mirage-bundle take. The members, their defaults, flags
// and descriptions are listed once, in CodegenOptions.def.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_CONVERSION_CODEGENOPTIONS_H
#define MIRAGE_CONVERSION_CODEGENOPTIONS_H

#include "Mirage/Analysis/KernelSchedule.h"

#include <cstdint>
#include <string>

namespace mlir::mirage {

/// The options of the code generator: one member per entry of
/// CodegenOptions.def (`chip`, `stages`, `maxSharedMemory`, `tensorCores`,
/// `wgmma`, `libraryMatmuls`, `maxKernelOps`, `rowPrograms`,
/// `preloadOnePass`, `runningMaxChains`, `tma`, `combineTails`), which gives
/// its type, default and meaning.
struct CodegenOptions {
#define MIRAGE_CODEGEN_OPTION(TYPE, NAME, FLAG, DEFAULT, DESCRIPTION)          \
  TYPE NAME = DEFAULT;
#include "Mirage/Conversion/CodegenOptions.def"

  /// What these options allow the kernel schedule.
  ScheduleOptions getScheduleOptions() const {
    ScheduleOptions options;
    options.maxStages = stages;
    options.tensorCores = tensorCores;
    options.warpgroupMatmuls = wgmma;
    options.tensorCopies = tma;
    options.maxSharedBytes = maxSharedMemory;
    options.rowPrograms = rowPrograms;
    options.preloadOnePass = preloadOnePass;
    options.runningMaxChains = runningMaxChains;
    return options;
  }
};

} // namespace mlir::mirage

#endif // MIRAGE_CONVERSION_CODEGENOPTIONS_H
