//===- TestPasses.h - Mirage test passes ------------------------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_TEST_TRANSFORMS_TESTPASSES_H
#define MIRAGE_TEST_TRANSFORMS_TESTPASSES_H

#include "Mirage/Conversion/CodegenOptions.h"
#include "Mirage/Semantics/Limits.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::mirage::test {

#define GEN_PASS_DECL
#include "TestPasses.h.inc"

} // namespace mlir::mirage::test

#endif // MIRAGE_TEST_TRANSFORMS_TESTPASSES_H
