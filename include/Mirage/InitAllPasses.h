//===- InitAllPasses.h - Register every Mirage pass -------------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_INITALLPASSES_H
#define MIRAGE_INITALLPASSES_H

#include "Mirage/Conversion/Passes.h"
#include "Mirage/Dialect/Kernel/Transforms/Passes.h"
#include "Mirage/Transforms/Passes.h"

namespace mlir::mirage {

/// Registers every Mirage pass with the global registry.
inline void registerAllPasses() {
  kernel::registerMirageKernelPasses();
  registerMirageTransformsPasses();
  registerMirageConversionPasses();
  registerMirageToPTXPipeline();
  registerMirageImportPipeline();
}

} // namespace mlir::mirage

#endif // MIRAGE_INITALLPASSES_H
