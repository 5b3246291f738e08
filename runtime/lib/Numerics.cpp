//===- Numerics.cpp - Host-side numerics of the bundle tools --------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "mirage/runtime/Numerics.h"

#include "mirage/runtime/HostFloat.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstring>

using namespace mirage::runtime;

uint64_t RandomSource::nextBits() {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

double RandomSource::uniform() {
  return static_cast<double>(nextBits() >> 11) * 0x1p-53;
}

double RandomSource::normal() {
  double u1 = (static_cast<double>(nextBits() >> 11) + 1.0) * 0x1p-53;
  double u2 = uniform();
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
}

std::vector<unsigned char>
mirage::runtime::encodeValues(const std::vector<float> &values, DType dtype) {
  std::vector<unsigned char> bytes(values.size() * dtypeSize(dtype));
  for (size_t i = 0; i < values.size(); ++i) {
    if (dtype == DType::F32) {
      std::memcpy(&bytes[i * 4], &values[i], 4);
      continue;
    }
    uint16_t bits = dtype == DType::F16 ? floatToHalf(values[i])
                                        : floatToBFloat16(values[i]);
    std::memcpy(&bytes[i * 2], &bits, 2);
  }
  return bytes;
}

std::vector<float>
mirage::runtime::decodeValues(const std::vector<unsigned char> &bytes,
                              DType dtype) {
  size_t size = static_cast<size_t>(dtypeSize(dtype));
  std::vector<float> values(bytes.size() / size);
  for (size_t i = 0; i < values.size(); ++i) {
    if (dtype == DType::F32) {
      std::memcpy(&values[i], &bytes[i * 4], 4);
      continue;
    }
    uint16_t bits;
    std::memcpy(&bits, &bytes[i * 2], 2);
    values[i] = dtype == DType::F16 ? halfToFloat(bits) : bfloat16ToFloat(bits);
  }
  return values;
}

Difference mirage::runtime::compareValues(const std::vector<float> &expected,
                                          const std::vector<float> &actual) {
  assert(expected.size() == actual.size() && "compared results differ in size");
  Difference difference;
  double scale = 1e-6, largest = 0;
  for (size_t i = 0; i < expected.size(); ++i) {
    if (!std::isfinite(expected[i]))
      continue;
    scale = std::max(scale, std::fabs(double(expected[i])));
    if (!std::isfinite(actual[i]))
      ++difference.unexpectedNonFinite;
    else
      largest =
          std::max(largest, std::fabs(double(actual[i]) - double(expected[i])));
  }
  difference.maxRelativeError = largest / scale;
  return difference;
}

float mirage::runtime::median(std::vector<float> samples) {
  assert(!samples.empty() && "the median of no samples");
  std::sort(samples.begin(), samples.end());
  size_t middle = samples.size() / 2;
  return samples.size() % 2 ? samples[middle]
                            : (samples[middle - 1] + samples[middle]) / 2;
}
