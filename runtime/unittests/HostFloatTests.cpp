//===- HostFloatTests.cpp - Tests of the f16 and bf16 conversions ---------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Testing.h"

#include "mirage/runtime/HostFloat.h"

#include <cmath>
#include <limits>

using namespace mirage::runtime;

MIRAGE_TEST(HostFloat, RoundsToHalf) {
  EXPECT_EQ(floatToHalf(0.0f), 0x0000);
  EXPECT_EQ(floatToHalf(-0.0f), 0x8000);
  EXPECT_EQ(floatToHalf(1.0f), 0x3C00);
  EXPECT_EQ(floatToHalf(-2.0f), 0xC000);
  EXPECT_EQ(floatToHalf(65504.0f), 0x7BFF);
  // 65520 is halfway between 65504 and 65536 (infinity): ties to even.
  EXPECT_EQ(floatToHalf(65519.0f), 0x7BFF);
  EXPECT_EQ(floatToHalf(65520.0f), 0x7C00);
  EXPECT_EQ(floatToHalf(1e10f), 0x7C00);
  EXPECT_EQ(floatToHalf(-std::numeric_limits<float>::infinity()), 0xFC00);
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -24)), 0x0001);
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -25)), 0x0000);
  EXPECT_EQ(floatToHalf(std::ldexp(3.0f, -26)), 0x0001);
  EXPECT_EQ(floatToHalf(std::ldexp(3.0f, -25)), 0x0002);
  EXPECT_EQ(floatToHalf(std::ldexp(1023.0f, -24)), 0x03FF);
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -14)), 0x0400);
  // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: ties to even (down).
  EXPECT_EQ(floatToHalf(1.0f + std::ldexp(1.0f, -11)), 0x3C00);
  EXPECT_EQ(floatToHalf(1.0f + std::ldexp(3.0f, -11)), 0x3C02);
  uint16_t nan = floatToHalf(std::numeric_limits<float>::quiet_NaN());
  EXPECT_TRUE((nan & 0x7C00) == 0x7C00 && (nan & 0x3FF) != 0);
}

MIRAGE_TEST(HostFloat, HalfRoundTripsExactly) {
  int mismatches = 0;
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    float value = halfToFloat(static_cast<uint16_t>(bits));
    if (std::isnan(value))
      continue;
    mismatches += floatToHalf(value) != bits;
  }
  EXPECT_EQ(mismatches, 0);
  EXPECT_EQ(halfToFloat(0x3555), 0.333251953125f);
  EXPECT_EQ(halfToFloat(0x8001), -std::ldexp(1.0f, -24));
}

MIRAGE_TEST(HostFloat, RoundsToBFloat16) {
  EXPECT_EQ(floatToBFloat16(1.0f), 0x3F80);
  EXPECT_EQ(floatToBFloat16(-2.0f), 0xC000);
  // 1 + 2^-8 is halfway between 1 and 1 + 2^-7: ties to even (down).
  EXPECT_EQ(floatToBFloat16(1.0f + std::ldexp(1.0f, -8)), 0x3F80);
  EXPECT_EQ(floatToBFloat16(1.0f + std::ldexp(3.0f, -8)), 0x3F82);
  EXPECT_EQ(floatToBFloat16(std::numeric_limits<float>::max()), 0x7F80);
  EXPECT_TRUE(std::isnan(bfloat16ToFloat(
      floatToBFloat16(std::numeric_limits<float>::quiet_NaN()))));
  int mismatches = 0;
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    float value = bfloat16ToFloat(static_cast<uint16_t>(bits));
    if (!std::isnan(value))
      mismatches += floatToBFloat16(value) != bits;
  }
  EXPECT_EQ(mismatches, 0);
}
