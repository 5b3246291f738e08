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

void FloatDomain::matmul(const Value *a, const Value *b, Value *c, int64_t m,
                         int64_t k, int64_t n) const {
  for (int64_t i = 0; i < m * n; ++i)
    c[i] = 0.0;
  for (int64_t i = 0; i < m; ++i)
    for (int64_t kk = 0; kk < k; ++kk) {
      Value x = a[i * k + kk];
      for (int64_t j = 0; j < n; ++j)
        c[i * n + j] = add(c[i * n + j], mul(x, b[kk * n + j]));
    }
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
// Montgomery arithmetic
//===----------------------------------------------------------------------===//

namespace {
using u128 = unsigned __int128;

/// Arithmetic modulo an odd `Modulus` < 2^62 on residues in Montgomery form
/// (x represented as x * 2^64 mod Modulus).
template <uint64_t Modulus> struct Montgomery {
  /// -Modulus^-1 mod 2^64, by Newton iteration.
  static constexpr uint64_t negInverse() {
    uint64_t inv = Modulus; // correct to 3 bits for an odd modulus
    for (int i = 0; i < 6; ++i)
      inv *= 2 - Modulus * inv;
    return ~inv + 1;
  }
  static constexpr uint64_t kNegInverse = negInverse();
  /// 2^128 mod Modulus, to enter Montgomery form.
  static constexpr uint64_t kR2 =
      static_cast<uint64_t>(((static_cast<u128>(1) << 64) % Modulus) *
                            ((static_cast<u128>(1) << 64) % Modulus) % Modulus);

  static uint64_t mul(uint64_t a, uint64_t b) {
    u128 t = static_cast<u128>(a) * b;
    uint64_t m = static_cast<uint64_t>(t) * kNegInverse;
    uint64_t u =
        static_cast<uint64_t>((t + static_cast<u128>(m) * Modulus) >> 64);
    return u >= Modulus ? u - Modulus : u;
  }
  static uint64_t add(uint64_t a, uint64_t b) {
    uint64_t s = a + b;
    return s >= Modulus ? s - Modulus : s;
  }
  static uint64_t neg(uint64_t a) { return a == 0 ? 0 : Modulus - a; }
  static uint64_t enter(uint64_t x) { return mul(x % Modulus, kR2); }
  static uint64_t leave(uint64_t a) { return mul(a, 1); }
  static uint64_t pow(uint64_t base, uint64_t exponent) {
    uint64_t result = enter(1);
    for (; exponent; exponent >>= 1) {
      if (exponent & 1)
        result = mul(result, base);
      base = mul(base, base);
    }
    return result;
  }
  /// t * 2^-64 mod Modulus for any 128-bit t: the high word is t's multiple
  /// of 2^64 = R, which R^-1 cancels; the low word is reduced as usual.
  static uint64_t reduceWide(u128 t) {
    uint64_t high = static_cast<uint64_t>(t >> 64) % Modulus;
    return add(high, mul(static_cast<uint64_t>(t), 1));
  }
  /// The inverse (Fermat); zero maps to zero.
  static uint64_t inverse(uint64_t a) { return pow(a, Modulus - 2); }
};

using ModP = Montgomery<FieldDomain::kP>;
using ModQ = Montgomery<FieldDomain::kQ>;
constexpr uint64_t kNoExponent = FieldDomain::kNoExponent;

/// omega^x for x < q < 2^61 as the product of four table entries, one per
/// 16-bit digit of x: table[d][j] = omega^(j * 2^(16 d)).
struct ExpTables {
  std::vector<uint64_t> table[4];
  ExpTables() {
    uint64_t base = ModP::enter(4); // omega = 4, of order q in Z_p
    for (auto &digit : table) {
      digit.resize(1 << 16);
      digit[0] = ModP::enter(1);
      for (size_t j = 1; j < digit.size(); ++j)
        digit[j] = ModP::mul(digit[j - 1], base);
      base = ModP::pow(base, 1 << 16);
    }
  }
  uint64_t power(uint64_t x) const {
    uint64_t r = ModP::mul(table[0][x & 0xffff], table[1][(x >> 16) & 0xffff]);
    r = ModP::mul(r, table[2][(x >> 32) & 0xffff]);
    return ModP::mul(r, table[3][x >> 48]);
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

/// A uniform integer in [0, bound) (rejection sampling).
uint64_t uniform(uint64_t &state, uint64_t bound) {
  uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
  for (;;) {
    uint64_t r = splitmix64(state);
    if (r < limit)
      return r % bound;
  }
}

/// Applies `fn` to the q residues unless one of them is unknown.
template <typename Fn> uint64_t onExponents(uint64_t a, uint64_t b, Fn fn) {
  return a == kNoExponent || b == kNoExponent ? kNoExponent : fn(a, b);
}
} // namespace

//===----------------------------------------------------------------------===//
// FieldDomain
//===----------------------------------------------------------------------===//

FieldDomain::FieldDomain(uint64_t key) : key(key) { (void)getExpTables(); }

FieldValue FieldDomain::random(uint64_t &state) {
  // Uniform residues are uniform in Montgomery form too: it is a bijection.
  FieldValue v;
  v.p = uniform(state, kP);
  v.q = uniform(state, kQ);
  return v;
}

FieldValue FieldDomain::constant(double c) const {
  // c = mantissa * 2^exponent exactly, with an integer mantissa.
  int exponent = 0;
  double fraction = std::frexp(c, &exponent);
  int64_t mantissa = static_cast<int64_t>(std::ldexp(fraction, 53));
  exponent -= 53;
  uint64_t magnitude =
      static_cast<uint64_t>(mantissa < 0 ? -mantissa : mantissa);
  uint64_t shift = static_cast<uint64_t>(exponent < 0 ? -exponent : exponent);
  auto scale = [&](auto field, uint64_t m) {
    uint64_t two = field.enter(2);
    uint64_t factor = exponent < 0 ? field.inverse(two) : two;
    return field.mul(field.enter(m), field.pow(factor, shift));
  };
  FieldValue v{scale(ModP(), magnitude), scale(ModQ(), magnitude)};
  return mantissa < 0 ? neg(v) : v;
}

FieldValue FieldDomain::add(Value a, Value b) const {
  return {ModP::add(a.p, b.p), onExponents(a.q, b.q, ModQ::add)};
}

FieldValue FieldDomain::neg(Value a) const {
  return {ModP::neg(a.p), a.q == kNoExponent ? kNoExponent : ModQ::neg(a.q)};
}

FieldValue FieldDomain::sub(Value a, Value b) const { return add(a, neg(b)); }

FieldValue FieldDomain::mul(Value a, Value b) const {
  return {ModP::mul(a.p, b.p), onExponents(a.q, b.q, ModQ::mul)};
}

FieldValue FieldDomain::divisor(Value b) const {
  // Zero has no inverse; it maps to zero. On random inputs a divisor is zero
  // with probability at most its degree / p (docs/Verification.md).
  return {ModP::inverse(b.p),
          b.q == kNoExponent ? kNoExponent : ModQ::inverse(b.q)};
}

FieldValue FieldDomain::exp(Value a) {
  if (a.q == kNoExponent) {
    if (!error)
      error = "exp of a value that already depends on exp is outside the "
              "verifiable (LAX) fragment";
    return a;
  }
  return {getExpTables().power(ModQ::leave(a.q)), kNoExponent};
}

FieldValue FieldDomain::max(Value a, Value b) const {
  if (a.p == b.p)
    return a; // max(x, x) = x, exactly
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

uint64_t FieldDomain::toInteger(Value v) { return ModP::leave(v.p); }

void FieldDomain::matmul(const Value *a, const Value *b, Value *c, int64_t m,
                         int64_t k, int64_t n) const {
  // Each product of two residues is below 2^124 (p < 2^62), so 16 of them
  // fit a 128-bit accumulator before one wide reduction. Columns go in
  // blocks whose accumulators stay in the L1 cache.
  constexpr int64_t kBatch = 16, kColumns = 128;
  u128 accP[kColumns], accQ[kColumns];
  uint64_t sumP[kColumns], sumQ[kColumns];
  bool unknownQ[kColumns];
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j0 = 0; j0 < n; j0 += kColumns) {
      int64_t width = std::min(kColumns, n - j0);
      std::fill_n(accP, width, 0);
      std::fill_n(accQ, width, 0);
      std::fill_n(sumP, width, 0);
      std::fill_n(sumQ, width, 0);
      std::fill_n(unknownQ, width, false);
      bool rowUnknownQ = false;
      for (int64_t kk = 0; kk < k; ++kk) {
        Value x = a[i * k + kk];
        const Value *row = b + kk * n + j0;
        for (int64_t j = 0; j < width; ++j)
          accP[j] += static_cast<u128>(x.p) * row[j].p;
        if (x.q == kNoExponent) {
          rowUnknownQ = true;
        } else if (!rowUnknownQ) {
          for (int64_t j = 0; j < width; ++j) {
            unknownQ[j] |= row[j].q == kNoExponent;
            accQ[j] += static_cast<u128>(x.q) * row[j].q;
          }
        }
        if (kk % kBatch == kBatch - 1 || kk == k - 1) {
          for (int64_t j = 0; j < width; ++j) {
            sumP[j] = ModP::add(sumP[j], ModP::reduceWide(accP[j]));
            sumQ[j] = ModQ::add(sumQ[j], ModQ::reduceWide(accQ[j]));
            accP[j] = accQ[j] = 0;
          }
        }
      }
      for (int64_t j = 0; j < width; ++j)
        c[i * n + j0 + j] = {sumP[j], rowUnknownQ || unknownQ[j] ? kNoExponent
                                                                 : sumQ[j]};
    }
  }
}
