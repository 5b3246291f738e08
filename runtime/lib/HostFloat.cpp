//===- HostFloat.cpp - f16 and bf16 on the host ---------------------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "mirage/runtime/HostFloat.h"

#include <cmath>
#include <cstring>

using namespace mirage::runtime;

namespace {

uint32_t bitsOf(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits;
}

float floatOf(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

/// `value >> shift`, rounded to nearest with ties to even; 0 < shift < 32.
uint32_t shiftRightRounded(uint32_t value, int shift) {
  uint32_t result = value >> shift;
  uint32_t remainder = value & ((uint32_t(1) << shift) - 1);
  uint32_t half = uint32_t(1) << (shift - 1);
  if (remainder > half || (remainder == half && (result & 1)))
    ++result;
  return result;
}

} // namespace

uint16_t mirage::runtime::floatToHalf(float value) {
  uint32_t bits = bitsOf(value);
  uint32_t sign = (bits >> 16) & 0x8000;
  int32_t exponent = static_cast<int32_t>((bits >> 23) & 0xFF);
  uint32_t mantissa = bits & 0x7FFFFF;
  if (exponent == 0xFF) // Infinity or NaN (kept quiet).
    return static_cast<uint16_t>(sign | 0x7C00 | (mantissa ? 0x200 : 0));
  int32_t halfExponent = exponent - 127 + 15;
  if (halfExponent >= 31)
    return static_cast<uint16_t>(sign | 0x7C00);
  if (halfExponent <= 0) {
    // A subnormal half (or zero): its unit is 2^-24.
    if (halfExponent < -10)
      return static_cast<uint16_t>(sign);
    uint32_t significand = mantissa | 0x800000;
    return static_cast<uint16_t>(
        sign | shiftRightRounded(significand, 14 - halfExponent));
  }
  // A carry out of the mantissa correctly bumps the exponent (up to inf).
  uint32_t half =
      (static_cast<uint32_t>(halfExponent) << 10) | (mantissa >> 13);
  uint32_t remainder = mantissa & 0x1FFF;
  if (remainder > 0x1000 || (remainder == 0x1000 && (half & 1)))
    ++half;
  return static_cast<uint16_t>(sign | half);
}

float mirage::runtime::halfToFloat(uint16_t bits) {
  uint32_t sign = static_cast<uint32_t>(bits & 0x8000) << 16;
  uint32_t exponent = (bits >> 10) & 0x1F;
  uint32_t mantissa = bits & 0x3FF;
  if (exponent == 0) {
    float magnitude = std::ldexp(static_cast<float>(mantissa), -24);
    return sign ? -magnitude : magnitude;
  }
  if (exponent == 31)
    return floatOf(sign | 0x7F800000 | (mantissa << 13));
  return floatOf(sign | ((exponent - 15 + 127) << 23) | (mantissa << 13));
}

uint16_t mirage::runtime::floatToBFloat16(float value) {
  uint32_t bits = bitsOf(value);
  if (std::isnan(value))
    return static_cast<uint16_t>((bits >> 16) | 0x40);
  uint32_t rounding = 0x7FFF + ((bits >> 16) & 1);
  return static_cast<uint16_t>((bits + rounding) >> 16);
}

float mirage::runtime::bfloat16ToFloat(uint16_t bits) {
  return floatOf(static_cast<uint32_t>(bits) << 16);
}
