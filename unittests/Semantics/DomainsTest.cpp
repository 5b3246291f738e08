//===- DomainsTest.cpp - Number systems of the interpreter ----------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Semantics/Domains.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace mlir::mirage::sem;

namespace {

bool same(FieldValue a, FieldValue b) { return FieldDomain::equal(a, b); }

TEST(FieldDomain, ExpTurnsSumsIntoProducts) {
  FieldDomain f(42);
  uint64_t state = 7;
  for (int i = 0; i < 100; ++i) {
    FieldValue a = FieldDomain::random(state), b = FieldDomain::random(state);
    EXPECT_TRUE(same(f.exp(f.add(a, b)), f.mul(f.exp(a), f.exp(b))));
    EXPECT_TRUE(
        same(f.exp(f.neg(a)), f.divide(f.constant(1), f.divisor(f.exp(a)))));
  }
  EXPECT_EQ(f.getError(), nullptr);
}

TEST(FieldDomain, ExpOfExpIsRejected) {
  FieldDomain f(1);
  uint64_t state = 3;
  FieldValue e = f.exp(FieldDomain::random(state));
  EXPECT_EQ(f.getError(), nullptr);
  f.exp(f.add(e, f.constant(1)));
  ASSERT_NE(f.getError(), nullptr);
  EXPECT_NE(std::string(f.getError()).find("LAX"), std::string::npos);
}

TEST(FieldDomain, FieldArithmetic) {
  FieldDomain f(5);
  uint64_t state = 11;
  for (int i = 0; i < 100; ++i) {
    FieldValue a = FieldDomain::random(state), b = FieldDomain::random(state),
               c = FieldDomain::random(state);
    EXPECT_TRUE(same(f.divide(f.mul(a, b), f.divisor(b)), a));
    EXPECT_TRUE(same(f.mul(a, f.add(b, c)), f.add(f.mul(a, b), f.mul(a, c))));
    EXPECT_TRUE(same(f.sub(a, a), f.constant(0)));
    EXPECT_FALSE(same(a, f.add(a, f.constant(1))));
  }
}

TEST(FieldDomain, ConstantsAreExactRationals) {
  FieldDomain f(0);
  EXPECT_TRUE(same(f.mul(f.constant(0.5), f.constant(2)), f.constant(1)));
  EXPECT_TRUE(same(f.add(f.constant(-3), f.constant(3)), f.constant(0)));
  EXPECT_TRUE(same(f.mul(f.constant(0.125), f.constant(24)), f.constant(3)));
  EXPECT_TRUE(same(f.add(f.constant(1.5), f.constant(2.25)), f.constant(3.75)));
  EXPECT_EQ(FieldDomain::toInteger(f.constant(12345)), 12345u);
  // 1e-6 is not 0, and its residue is the exact value of the double.
  EXPECT_FALSE(same(f.constant(1e-6), f.constant(0)));
}

TEST(FieldDomain, KeyedFunctionsAreFunctions) {
  FieldDomain f(9), g(10);
  uint64_t state = 5;
  FieldValue a = FieldDomain::random(state), b = FieldDomain::random(state);
  EXPECT_TRUE(same(f.sqrt(a), f.sqrt(a)));
  EXPECT_FALSE(same(f.sqrt(a), f.sqrt(b)));
  EXPECT_FALSE(same(f.sqrt(a), f.silu(a)));
  EXPECT_FALSE(same(f.sqrt(a), g.sqrt(a))) << "the key selects the function";
  EXPECT_TRUE(same(f.max(a, b), f.max(b, a)));
  EXPECT_FALSE(same(f.pow(a, b), f.pow(b, a)));
}

TEST(FloatDomain, RoundsToHalfPrecision) {
  EXPECT_EQ(roundToF16(1.0f), 1.0f);
  EXPECT_EQ(roundToF16(65504.0f), 65504.0f);
  EXPECT_EQ(roundToF16(65519.0f), 65504.0f);
  EXPECT_TRUE(std::isinf(roundToF16(65520.0f)));
  // Ties go to even: 1 + 2^-11 lies halfway between 1 and 1 + 2^-10.
  EXPECT_EQ(roundToF16(1.0f + 0x1p-11f), 1.0f);
  EXPECT_EQ(roundToF16(1.0f + 3 * 0x1p-11f), 1.0f + 0x1p-9f);
  EXPECT_EQ(roundToF16(0x1p-24f), 0x1p-24f); // smallest subnormal
  EXPECT_EQ(roundToF16(0x1p-25f), 0.0f);     // tie to even (zero)
  EXPECT_EQ(roundToF16(-0.1f), -0.0999755859375f);
}

TEST(FloatDomain, RoundsToBFloat16) {
  EXPECT_EQ(roundToBF16(1.0f), 1.0f);
  EXPECT_EQ(roundToBF16(1.0f + 0x1p-8f), 1.0f); // tie to even
  EXPECT_EQ(roundToBF16(1.0f + 3 * 0x1p-8f), 1.0f + 0x1p-6f);
  EXPECT_EQ(roundToBF16(3.14159265f), 3.140625f);
}

TEST(FloatDomain, StoragePrecisionRoundsStoredValues) {
  FloatDomain exact(FloatPrecision::F64), kernel(FloatPrecision::Storage);
  double third = 1.0 / 3.0;
  EXPECT_EQ(exact.store(third, ElementType::F16), third);
  EXPECT_EQ(kernel.store(third, ElementType::F16), 0.333251953125);
  EXPECT_EQ(kernel.store(third, ElementType::F32),
            static_cast<double>(static_cast<float>(third)));
  EXPECT_FALSE(exact.roundsStorage());
  EXPECT_TRUE(kernel.roundsStorage());
}

} // namespace
