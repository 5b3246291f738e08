//===- NumericsTests.cpp - Tests of the tools' host-side numerics ---------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Testing.h"

#include "mirage/runtime/Numerics.h"

#include <cmath>

using namespace mirage::runtime;

MIRAGE_TEST(Numerics, RandomSourceIsDeterministic) {
  RandomSource source(1);
  EXPECT_EQ(source.nextBits(), uint64_t(0x910a2dec89025cc1ull));
  EXPECT_EQ(RandomSource(1).uniform(), 0.5665615751722809);
  // mirage-run's inputs: these values must not change.
  RandomSource normal(1);
  EXPECT_TRUE(std::fabs(normal.normal() - -0.028249746095854695) < 1e-15);
  EXPECT_TRUE(std::fabs(normal.normal() - -0.2279195228676347) < 1e-15);
  RandomSource a(7), b(7);
  double sum = 0;
  bool inRange = true, same = true;
  for (int i = 0; i < 10000; ++i) {
    double value = a.uniform();
    same &= value == b.uniform();
    inRange &= value >= 0 && value < 1;
    sum += value;
  }
  EXPECT_TRUE(same && inRange);
  EXPECT_TRUE(std::fabs(sum / 10000 - 0.5) < 0.01);
}

MIRAGE_TEST(Numerics, EncodesAndDecodesEveryDType) {
  std::vector<float> values = {1.0f, -0.5f, 0.1f, 65504.0f};
  std::vector<unsigned char> half = encodeValues(values, DType::F16);
  EXPECT_EQ(half.size(), size_t(8));
  EXPECT_EQ(int(half[0]), 0x00);
  EXPECT_EQ(int(half[1]), 0x3C);
  std::vector<float> decoded = decodeValues(half, DType::F16);
  EXPECT_EQ(decoded.size(), size_t(4));
  EXPECT_TRUE(decoded[0] == 1.0f && decoded[1] == -0.5f &&
              decoded[3] == 65504.0f && decoded[2] != 0.1f &&
              std::fabs(decoded[2] - 0.1f) < 1e-4f);
  std::vector<float> bf16 =
      decodeValues(encodeValues(values, DType::BF16), DType::BF16);
  EXPECT_TRUE(bf16[0] == 1.0f && std::fabs(bf16[2] - 0.1f) < 1e-3f);
  std::vector<unsigned char> f32 = encodeValues(values, DType::F32);
  EXPECT_EQ(f32.size(), size_t(16));
  EXPECT_TRUE(decodeValues(f32, DType::F32) == values);
}

MIRAGE_TEST(Numerics, ComparesOutputs) {
  std::vector<float> expected = {1.0f, -2.0f, 4.0f};
  Difference same = compareValues(expected, expected);
  EXPECT_EQ(same.maxRelativeError, 0.0);
  EXPECT_EQ(same.unexpectedNonFinite, int64_t(0));
  // max |a - b| = 0.1 over max |b| = 4.
  Difference off = compareValues(expected, {1.1f, -2.0f, 4.0f});
  EXPECT_TRUE(std::fabs(off.maxRelativeError - 0.025) < 1e-6);
  // A NaN where the expected value is finite counts; where it is not, any
  // value is accepted.
  float nan = std::nanf(""), inf = HUGE_VALF;
  Difference nonFinite = compareValues(expected, {nan, -2.0f, inf});
  EXPECT_EQ(nonFinite.unexpectedNonFinite, int64_t(2));
  EXPECT_EQ(nonFinite.maxRelativeError, 0.0);
  Difference skipped = compareValues({nan, 2.0f, inf}, {5.0f, 2.0f, nan});
  EXPECT_EQ(skipped.unexpectedNonFinite, int64_t(0));
  EXPECT_EQ(skipped.maxRelativeError, 0.0);
  // All-zero expected values: the scale is 1e-6.
  Difference zero = compareValues({0.0f, 0.0f}, {0.0f, 1e-7f});
  EXPECT_TRUE(std::fabs(zero.maxRelativeError - 0.1) < 1e-6);
}

MIRAGE_TEST(Numerics, TakesMedians) {
  EXPECT_EQ(median({3.0f}), 3.0f);
  EXPECT_EQ(median({5.0f, 1.0f, 3.0f}), 3.0f);
  EXPECT_EQ(median({4.0f, 1.0f, 3.0f, 2.0f}), 2.5f);
}
