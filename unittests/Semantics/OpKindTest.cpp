//===- OpKindTest.cpp - The elementwise kinds of the compact form ---------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Semantics/Program.h"

#include "gtest/gtest.h"

using namespace mlir::mirage;
using namespace mlir::mirage::sem;

namespace {

// The elementwise functions embed in OpKind under their ElementwiseKind and
// keep its name and arity; the other kinds have none.
TEST(OpKindTest, ElementwiseKindsEmbed) {
  for (unsigned value = 0; value < kNumElementwiseKinds; ++value) {
    auto fn = static_cast<ElementwiseKind>(value);
    OpKind kind = toOpKind(fn);
    EXPECT_EQ(toElementwiseKind(kind), fn);
    EXPECT_EQ(getOpName(kind), stringifyElementwiseKind(fn));
    EXPECT_EQ(isUnary(kind), getElementwiseArity(fn) == 1);
    EXPECT_EQ(isBinary(kind), getElementwiseArity(fn) == 2);
  }
  for (OpKind kind : {OpKind::Matmul, OpKind::RmsNorm, OpKind::GraphDef,
                      OpKind::ClusterReduceScatter}) {
    EXPECT_EQ(toElementwiseKind(kind), std::nullopt);
    EXPECT_FALSE(isUnary(kind) || isBinary(kind));
  }
  EXPECT_EQ(getOpName(OpKind::Matmul), "matmul");
}

} // namespace
