//===- PipelineDefaults.h - Defaults of the code generator ------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Defaults that the passes, the pipeline and the bundle writer share.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_CONVERSION_PIPELINEDEFAULTS_H
#define MIRAGE_CONVERSION_PIPELINEDEFAULTS_H

#include <cstdint>

namespace mlir::mirage {

/// How many for-loop iterations' loop-varying tiles are in shared memory at
/// once by default (software pipelining; docs/CodeGeneration.md).
inline constexpr int64_t kDefaultPipelineStages = 4;

} // namespace mlir::mirage

#endif // MIRAGE_CONVERSION_PIPELINEDEFAULTS_H
