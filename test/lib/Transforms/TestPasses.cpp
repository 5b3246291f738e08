//===- TestPasses.cpp - Registration of the Mirage test passes ------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "TestPasses.h"

namespace mlir::mirage::test {

#define GEN_PASS_REGISTRATION
#include "TestPasses.h.inc"

/// Registers the Mirage test passes with the global registry; mirage-opt
/// declares it.
void registerMirageTestPasses() { registerMirageTestTransformsPasses(); }

} // namespace mlir::mirage::test
