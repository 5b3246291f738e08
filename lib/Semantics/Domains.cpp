//===- Domains.cpp - Number systems of the Mirage interpreter -------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Semantics/Domains.h"

#include <cstring>
#include <utility>
#include <vector>

using namespace mlir::mirage::sem;

//===----------------------------------------------------------------------===//
// Float
//===----------------------------------------------------------------------===//

float mlir::mirage::sem::roundToF16(float value) {
  if (!std::isfinite(value) || value == 0.0f)
    return value;
  int exponent;
  std::frexp(value, &exponent); // value = m * 2^exponent, 0.5 <= |m| < 1
  // The spacing of f16 values around `value`: 10 fraction bits, and the
  // subnormal spacing 2^-24 below 2^-14.
  int quantumExponent = std::max(exponent - 1 - 10, -24);
  float quantum = std::ldexp(1.0f, quantumExponent);
  float rounded = std::nearbyint(value / quantum) * quantum;
  if (std::fabs(rounded) > 65504.0f)
    return std::copysign(INFINITY, value);
  return rounded;
}

float mlir::mirage::sem::roundToBF16(float value) {
  if (std::isnan(value))
    return value;
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  bits += 0x7fffu + ((bits >> 16) & 1u); // round to nearest, ties to even
  bits &= 0xffff0000u;
  float rounded;
  std::memcpy(&rounded, &bits, sizeof(rounded));
  return rounded;
}

FloatDomain::Value FloatDomain::store(Value v, ElementType type) const {
  if (precision == FloatPrecision::F64)
    return v;
  float f = static_cast<float>(v);
  switch (type) {
  case ElementType::F16:
    return roundToF16(f);
  case ElementType::BF16:
    return roundToBF16(f);
  case ElementType::F32:
    return f;
  }
  return f;
}

//===----------------------------------------------------------------------===//
// Montgomery arithmetic mod p
//===----------------------------------------------------------------------===//

namespace {
using u128 = unsigned __int128;
constexpr uint64_t kP = FieldDomain::kP;
constexpr uint32_t kQ = FieldDomain::kQ;

/// -p^-1 mod 2^64, by Newton iteration.
constexpr uint64_t computeNegInverse() {
  uint64_t inv = kP; // correct to 3 bits for odd p
  for (int i = 0; i < 6; ++i)
    inv *= 2 - kP * inv;
  return ~inv + 1;
}
constexpr uint64_t kNegInverse = computeNegInverse();
/// 2^128 mod p, to enter Montgomery form.
constexpr uint64_t kR2 = static_cast<uint64_t>(
    ((static_cast<u128>(1) << 64) % kP) * ((static_cast<u128>(1) << 64) % kP) %
    kP);

inline uint64_t montMul(uint64_t a, uint64_t b) {
  u128 t = static_cast<u128>(a) * b;
  uint64_t m = static_cast<uint64_t>(t) * kNegInverse;
  uint64_t u = static_cast<uint64_t>((t + static_cast<u128>(m) * kP) >> 64);
  return u >= kP ? u - kP : u;
}
inline uint64_t toMont(uint64_t x) { return montMul(x % kP, kR2); }
inline uint64_t fromMont(uint64_t a) { return montMul(a, 1); }
const uint64_t kOneMont = toMont(1);

uint64_t montPow(uint64_t base, uint64_t exponent) {
  uint64_t result = kOneMont;
  while (exponent) {
    if (exponent & 1)
      result = montMul(result, base);
    base = montMul(base, base);
    exponent >>= 1;
  }
  return result;
}

uint32_t powModQ(uint64_t base, uint64_t exponent) {
  uint64_t result = 1;
  base %= kQ;
  while (exponent) {
    if (exponent & 1)
      result = result * base % kQ;
    base = base * base % kQ;
    exponent >>= 1;
  }
  return static_cast<uint32_t>(result);
}

/// An element of order q in Z_p^*: 2^((p-1)/q) mod p.
constexpr uint64_t kOmega = 4551986648387929970ull;

/// omega^x = low[x & 0xffff] * high[x >> 16] for x < q < 2^31.
struct ExpTables {
  std::vector<uint64_t> low, high;
  ExpTables() : low(1 << 16), high(1 << 15) {
    uint64_t omega = toMont(kOmega);
    uint64_t step = montPow(omega, 1 << 16);
    low[0] = high[0] = kOneMont;
    for (size_t i = 1; i < low.size(); ++i)
      low[i] = montMul(low[i - 1], omega);
    for (size_t i = 1; i < high.size(); ++i)
      high[i] = montMul(high[i - 1], step);
  }
};

const ExpTables &getExpTables() {
  static const ExpTables tables;
  return tables;
}

/// The splitmix64 finaliser: a bijective 64-bit mixer.
inline uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

inline uint64_t splitmix64(uint64_t &state) {
  return mix64(state += 0x9e3779b97f4a7c15ull);
}

/// A uniform integer in [0, bound) (rejection sampling, bound < 2^63).
uint64_t uniform(uint64_t &state, uint64_t bound) {
  uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
  for (;;) {
    uint64_t r = splitmix64(state);
    if (r < limit)
      return r % bound;
  }
}
} // namespace

//===----------------------------------------------------------------------===//
// FieldDomain
//===----------------------------------------------------------------------===//

FieldDomain::FieldDomain(uint64_t key) : key(key) { (void)getExpTables(); }

FieldValue FieldDomain::random(uint64_t &state) {
  FieldValue v;
  v.p = uniform(state, kP); // uniform in Montgomery form too: a bijection
  v.q = static_cast<uint32_t>(uniform(state, kQ));
  return v;
}

FieldValue FieldDomain::constant(double c) const {
  // c = mantissa * 2^exponent exactly, with an integer mantissa.
  int exponent = 0;
  double fraction = std::frexp(c, &exponent);
  int64_t mantissa = static_cast<int64_t>(std::ldexp(fraction, 53));
  exponent -= 53;
  uint64_t magnitude = static_cast<uint64_t>(mantissa < 0 ? -mantissa : mantissa);
  FieldValue v{toMont(magnitude), static_cast<uint32_t>(magnitude % kQ)};
  if (mantissa < 0)
    v = neg(v);
  uint64_t two = toMont(2);
  uint64_t twoInverse = montPow(two, kP - 2);
  int64_t steps = exponent < 0 ? -static_cast<int64_t>(exponent) : exponent;
  v.p = montMul(v.p, montPow(exponent < 0 ? twoInverse : two, steps));
  uint32_t qTwo = exponent < 0 ? powModQ(2, kQ - 2) : 2;
  v.q = static_cast<uint32_t>(static_cast<uint64_t>(v.q) * powModQ(qTwo, steps) % kQ);
  return v;
}

FieldValue FieldDomain::add(Value a, Value b) const {
  uint64_t p = a.p + b.p;
  FieldValue r;
  r.p = p >= kP ? p - kP : p;
  r.q = (a.q == kNoExponent || b.q == kNoExponent)
            ? kNoExponent
            : static_cast<uint32_t>((static_cast<uint64_t>(a.q) + b.q) % kQ);
  return r;
}

FieldValue FieldDomain::neg(Value a) const {
  FieldValue r;
  r.p = a.p == 0 ? 0 : kP - a.p;
  r.q = a.q == kNoExponent ? kNoExponent : (kQ - a.q) % kQ;
  return r;
}

FieldValue FieldDomain::sub(Value a, Value b) const { return add(a, neg(b)); }

FieldValue FieldDomain::mul(Value a, Value b) const {
  FieldValue r;
  r.p = montMul(a.p, b.p);
  r.q = (a.q == kNoExponent || b.q == kNoExponent)
            ? kNoExponent
            : static_cast<uint32_t>(static_cast<uint64_t>(a.q) * b.q % kQ);
  return r;
}

FieldValue FieldDomain::divisor(Value b) const {
  // Zero has no inverse; it occurs with probability about 2^-61 per divisor
  // on random inputs and then maps to zero (docs/Verification.md).
  FieldValue r;
  r.p = montPow(b.p, kP - 2);
  r.q = b.q == kNoExponent ? kNoExponent : powModQ(b.q, kQ - 2);
  return r;
}

FieldValue FieldDomain::exp(Value a) {
  if (a.q == kNoExponent) {
    if (!error)
      error = "exp of a value that already depends on exp is outside the "
              "verifiable (LAX) fragment";
    return a;
  }
  const ExpTables &tables = getExpTables();
  FieldValue r;
  r.p = montMul(tables.low[a.q & 0xffff], tables.high[a.q >> 16]);
  r.q = kNoExponent;
  return r;
}

FieldValue FieldDomain::max(Value a, Value b) const {
  if (b.p < a.p)
    std::swap(a, b);
  return keyed(6, a, b);
}

FieldValue FieldDomain::keyed(uint64_t fn, Value a, Value b) const {
  // The residue mod p identifies a value; the residue mod q is derived data
  // that may be unknown, so it is not hashed.
  uint64_t state = mix64(key ^ (fn * 0x9e3779b97f4a7c15ull));
  state = mix64(state ^ a.p);
  state = mix64(state ^ b.p);
  return random(state);
}

uint64_t FieldDomain::toInteger(Value v) { return fromMont(v.p); }
