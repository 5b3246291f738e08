//===- Domains.h - Number systems of the Mirage interpreter -----*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The interpreter is one template over a number system ("domain"). A domain
// provides the value type and every scalar function of the language
// (docs/LanguageReference.md):
//
//   Value constant(double); Value add/sub/mul(Value, Value); Value neg(Value);
//   Divisor divisor(Value); Value divide(Value, Divisor);
//   Value exp/sqrt/silu/gelu/relu(Value); Value pow/max(Value, Value);
//   Value store(Value, ElementType)   -- rounding to the storage type
//   bool roundsStorage()              -- whether store() is not the identity
//   void matmul(a, b, c, m, k, n)     -- c = a * b for row-major m x k and
//                                        k x n blocks, the hot loop
//   const char *getError()            -- non-null once a value left the
//                                        domain's fragment
//
// FloatDomain computes in double, or like a GPU kernel (f32 arithmetic,
// results rounded to f16/bf16/f32 storage). FieldDomain is the probabilistic
// verifier's Z_p x Z_q (docs/Verification.md).
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SEMANTICS_DOMAINS_H
#define MIRAGE_SEMANTICS_DOMAINS_H

#include "Mirage/Semantics/Program.h"

#include <cmath>
#include <cstdint>

namespace mlir::mirage::sem {

//===----------------------------------------------------------------------===//
// Float
//===----------------------------------------------------------------------===//

/// Rounds to the nearest f16 / bf16 value (ties to even), as a float.
float roundToF16(float value);
float roundToBF16(float value);

/// How FloatDomain rounds.
enum class FloatPrecision {
  /// Exact reference: double arithmetic, no storage rounding.
  F64,
  /// Like a GPU kernel: f32 arithmetic and accumulation, every stored value
  /// rounded to its element type.
  Storage,
};

/// Real arithmetic in double, optionally emulating f32/f16/bf16 kernels.
class FloatDomain {
public:
  using Value = double;
  using Divisor = double;

  explicit FloatDomain(FloatPrecision precision = FloatPrecision::F64)
      : precision(precision) {}

  Value constant(double c) const { return fix(c); }
  Value add(Value a, Value b) const { return fix(a + b); }
  Value sub(Value a, Value b) const { return fix(a - b); }
  Value mul(Value a, Value b) const { return fix(a * b); }
  Value neg(Value a) const { return -a; }
  Divisor divisor(Value b) const { return b; }
  Value divide(Value a, Divisor b) const { return fix(a / b); }
  Value exp(Value a) const { return fix(std::exp(a)); }
  Value sqrt(Value a) const { return fix(std::sqrt(a)); }
  Value silu(Value a) const { return fix(a / (1.0 + std::exp(-a))); }
  Value gelu(Value a) const {
    return fix(0.5 * a * (1.0 + std::erf(a * 0.70710678118654752440)));
  }
  Value relu(Value a) const { return a > 0.0 ? a : 0.0; }
  Value pow(Value a, Value b) const { return fix(std::pow(a, b)); }
  Value max(Value a, Value b) const { return a > b ? a : b; }
  Value store(Value v, ElementType type) const;
  bool roundsStorage() const { return precision == FloatPrecision::Storage; }
  void matmul(const Value *a, const Value *b, Value *c, int64_t m, int64_t k,
              int64_t n) const;
  const char *getError() const { return nullptr; }

private:
  /// Rounds an intermediate result to f32 in Storage mode.
  Value fix(double v) const {
    return precision == FloatPrecision::F64
               ? v
               : static_cast<double>(static_cast<float>(v));
  }

  FloatPrecision precision;
};

//===----------------------------------------------------------------------===//
// Finite field
//===----------------------------------------------------------------------===//

/// An element of Z_p x Z_q, both residues in Montgomery form. `q` is
/// kNoExponent once the value depends on an `exp`: its residue mod q is then
/// unknown, and it cannot be exponentiated again.
struct FieldValue {
  uint64_t p = 0;
  uint64_t q = 0;
};

/// Z_p x Z_q for the safe prime p = 2q + 1 < 2^62 (q prime, about 2^61), with
/// exp(x) = omega^(x mod q) for omega = 4, of order q in Z_p, so that
/// exp(a + b) = exp(a) exp(b). Functions outside the LAX fragment are keyed
/// random functions: equal arguments give equal results, others independent
/// ones. docs/Verification.md derives the error bound.
class FieldDomain {
public:
  using Value = FieldValue;
  /// Division multiplies by the inverse, computed once per divisor element.
  using Divisor = FieldValue;

  static constexpr uint64_t kQ = 2305843009213688669ull;
  static constexpr uint64_t kP = 2 * kQ + 1;
  static constexpr uint64_t kNoExponent = ~0ull;

  /// `key` seeds the random functions; use the same key for every program of
  /// one trial.
  explicit FieldDomain(uint64_t key);

  /// A uniformly random element (an input entry) from a splitmix64 state.
  static Value random(uint64_t &state);

  Value constant(double c) const;
  Value add(Value a, Value b) const;
  Value sub(Value a, Value b) const;
  Value mul(Value a, Value b) const;
  Value neg(Value a) const;
  Divisor divisor(Value b) const;
  Value divide(Value a, Divisor inverse) const { return mul(a, inverse); }
  Value exp(Value a);
  Value sqrt(Value a) const { return keyed(1, a, a); }
  Value silu(Value a) const { return keyed(2, a, a); }
  Value gelu(Value a) const { return keyed(3, a, a); }
  Value relu(Value a) const { return keyed(4, a, a); }
  Value pow(Value a, Value b) const { return keyed(5, a, b); }
  /// Symmetric in its arguments, like max.
  Value max(Value a, Value b) const;
  Value store(Value v, ElementType) const { return v; }
  bool roundsStorage() const { return false; }
  /// Sums 128-bit products and reduces once per 16 of them.
  void matmul(const Value *a, const Value *b, Value *c, int64_t m, int64_t k,
              int64_t n) const;
  const char *getError() const { return error; }

  /// Whether two values are equal (both residues, where both are known).
  static bool equal(Value a, Value b) {
    return a.p == b.p &&
           (a.q == b.q || a.q == kNoExponent || b.q == kNoExponent);
  }
  /// The residue mod p as an ordinary integer (for printing).
  static uint64_t toInteger(Value v);

private:
  /// The keyed random function number `fn` of (a, b).
  Value keyed(uint64_t fn, Value a, Value b) const;

  uint64_t key;
  const char *error = nullptr;
};

} // namespace mlir::mirage::sem

#endif // MIRAGE_SEMANTICS_DOMAINS_H
