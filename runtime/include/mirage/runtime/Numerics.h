//===- Numerics.h - Host-side numerics of the bundle tools ------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// What the tools that run bundle functions (mirage-run, mirage-tune) compute
// on the host: deterministic random inputs, tensors as bytes of their dtype,
// the difference between two results, and medians of timings. No driver
// calls.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_RUNTIME_NUMERICS_H
#define MIRAGE_RUNTIME_NUMERICS_H

#include "mirage/runtime/Plan.h"

#include <cstdint>
#include <vector>

namespace mirage::runtime {

/// Deterministic pseudo-random numbers (splitmix64), the same on every
/// platform.
class RandomSource {
public:
  explicit RandomSource(uint64_t seed) : state(seed) {}

  /// 64 random bits.
  uint64_t nextBits();
  /// Uniform in [0, 1), with 53 random bits.
  double uniform();
  /// Standard normal (Box-Muller from two draws, the first never 0).
  double normal();

private:
  uint64_t state;
};

/// The host bytes of `values` stored as `dtype` (f16 and bf16 rounded to
/// nearest, ties to even).
std::vector<unsigned char> encodeValues(const std::vector<float> &values,
                                        DType dtype);

/// The values of the elements of `dtype` in `bytes`.
std::vector<float> decodeValues(const std::vector<unsigned char> &bytes,
                                DType dtype);

/// How one result differs from the expected one.
struct Difference {
  /// max |actual - expected| / max(max |expected|, 1e-6), over the
  /// positions where both are finite (the scale over the finite expected
  /// values).
  double maxRelativeError = 0;
  /// The positions where the expected value is finite but the actual one
  /// is not (NaN or infinite). Where the expected value is not finite, any
  /// actual value is accepted.
  int64_t unexpectedNonFinite = 0;
};

/// Compares `actual` with `expected`, element for element (same size).
Difference compareValues(const std::vector<float> &expected,
                         const std::vector<float> &actual);

/// The median of `samples` (the mean of the middle two for an even count);
/// `samples` must not be empty.
float median(std::vector<float> samples);

} // namespace mirage::runtime

#endif // MIRAGE_RUNTIME_NUMERICS_H
