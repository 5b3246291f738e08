//===- EquivalencePropertyTest.cpp - Field verdicts vs. float outputs -----===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Property: on random programs, the finite-field verdict and the float
// interpreter agree. Rewrites that preserve the function are proved
// equivalent and agree in float within 1e-9; for mutants, the field says
// "different" exactly when the float outputs differ.
//
//===----------------------------------------------------------------------===//

#include "Mirage/Semantics/Equivalence.h"
#include "Mirage/Semantics/Interpreter.h"

#include "gtest/gtest.h"

#include <cmath>
#include <random>

using namespace mlir;
using namespace mlir::mirage::sem;
using EK = mlir::mirage::ElementwiseKind;

namespace {

constexpr double kTolerance = 1e-9;

/// Random kernel graphs over 3x4 inputs, inside the verifiable fragment and
/// numerically tame: exp only of exp-free values of small magnitude,
/// division and sqrt only by or of exp results.
class RandomProgramBuilder {
public:
  explicit RandomProgramBuilder(uint64_t seed) : rng(seed) {}

  Program build() {
    program = Program();
    program.graphs.emplace_back();
    facts.clear();
    for (int i = 0; i < 3; ++i)
      input({3, 4});
    int32_t weight = input({4, 4});
    int steps = 3 + rng() % 6;
    for (int i = 0; i < steps; ++i)
      step(weight);
    graph().outputs.push_back(static_cast<int32_t>(graph().values.size()) - 1);
    return program;
  }

private:
  /// What the generator knows about a value.
  struct Facts {
    bool hasExp = false;
    bool positive = false; // strictly: a safe divisor and sqrt argument
    double bound = 1;      // bound on the magnitude
  };

  Graph &graph() { return program.graphs.front(); }

  int32_t input(ArrayRef<int64_t> shape) {
    int32_t v = define(shape, {});
    graph().inputs.push_back(v);
    return v;
  }

  int32_t define(ArrayRef<int64_t> shape, Facts f) {
    ValueType type;
    type.shape.assign(shape.begin(), shape.end());
    graph().values.push_back(type);
    facts.push_back(f);
    return static_cast<int32_t>(graph().values.size()) - 1;
  }

  /// Appends a node, or returns -1 when its result could grow too large for
  /// a meaningful float comparison.
  int32_t node(OpKind kind, SmallVector<int32_t, 2> operands,
               ArrayRef<int64_t> shape, Facts f, double scalar = 0) {
    if (f.bound > 1e6)
      return -1;
    Node n;
    n.kind = kind;
    n.operands = std::move(operands);
    n.scalar = scalar;
    int32_t result = define(shape, f);
    n.results.push_back(result);
    if (kind == OpKind::Reduction) {
      n.dim = 1;
      n.size = 1;
    }
    graph().nodes.push_back(n);
    return result;
  }

  /// A random 3x4 value defined so far.
  int32_t pick() {
    SmallVector<int32_t> candidates;
    for (int32_t v = 0; v < static_cast<int32_t>(graph().values.size()); ++v)
      if (graph().values[v].shape == SmallVector<int64_t, 4>{3, 4})
        candidates.push_back(v);
    return candidates[rng() % candidates.size()];
  }

  void step(int32_t weight) {
    int32_t a = pick(), b = pick();
    const Facts fa = facts[a], fb = facts[b];
    switch (rng() % 9) {
    case 0:
    case 1: {
      OpKind kind = toOpKind(std::array{EK::Add, EK::Sub, EK::Mul}[rng() % 3]);
      double bound =
          kind == toOpKind(EK::Mul) ? fa.bound * fb.bound : fa.bound + fb.bound;
      node(kind, {a, b}, {3, 4}, {fa.hasExp || fb.hasExp, false, bound});
      break;
    }
    case 2:
      if (!fa.hasExp && fa.bound < 8) {
        node(toOpKind(EK::Exp), {a}, {3, 4}, {true, true, std::exp(fa.bound)});
        break;
      }
      [[fallthrough]];
    case 3: {
      // Divide by a positive exp result.
      int32_t e = facts[b].positive
                      ? b
                      : (!fb.hasExp && fb.bound < 8
                             ? node(toOpKind(EK::Exp), {b}, {3, 4},
                                    {true, true, std::exp(fb.bound)})
                             : -1);
      if (e >= 0)
        node(toOpKind(EK::Div), {a, e}, {3, 4},
             {fa.hasExp || facts[e].hasExp, false,
              fa.bound * std::exp(fb.bound)});
      break;
    }
    case 4:
      node(OpKind::Matmul, {a, weight}, {3, 4},
           {fa.hasExp, false, 4 * fa.bound});
      break;
    case 5: {
      int32_t r = node(OpKind::Reduction, {a}, {3, 1},
                       {fa.hasExp, false, 4 * fa.bound});
      if (r >= 0)
        node(toOpKind(EK::Mul), {b, r}, {3, 4},
             {fa.hasExp || fb.hasExp, false, fb.bound * 4 * fa.bound});
      break;
    }
    case 6:
      // Non-negative, but possibly zero: never a divisor.
      node(toOpKind(EK::Square), {a}, {3, 4},
           {fa.hasExp, false, fa.bound * fa.bound});
      break;
    case 7:
      node(toOpKind(EK::MulScalar), {a}, {3, 4},
           {fa.hasExp, false, fa.bound * 2},
           std::array{0.5, -2.0, 0.25}[rng() % 3]);
      break;
    case 8:
      if (fa.positive)
        node(toOpKind(EK::Sqrt), {a}, {3, 4},
             {fa.hasExp, true, std::sqrt(fa.bound)});
      else
        node(toOpKind(EK::Neg), {a}, {3, 4}, fa);
      break;
    }
  }

  std::mt19937_64 rng;
  Program program;
  std::vector<Facts> facts;
};

/// Rewrites one node of `p` into an equal function.
Program rewrite(Program p, std::mt19937_64 &rng) {
  Graph &g = p.graphs.front();
  for (int attempt = 0; attempt < 16; ++attempt) {
    size_t index = rng() % g.nodes.size();
    Node &n = g.nodes[index];
    std::optional<EK> fn = toElementwiseKind(n.kind);
    if (!fn)
      continue;
    switch (*fn) {
    case EK::Add:
    case EK::Mul:
      std::swap(n.operands[0], n.operands[1]);
      return p;
    case EK::Square:
      n.kind = toOpKind(EK::Mul);
      n.operands.push_back(n.operands[0]);
      return p;
    case EK::Sub: {
      // a - b == a + neg(b)
      Node neg;
      neg.kind = toOpKind(EK::Neg);
      neg.operands = {n.operands[1]};
      neg.results = {static_cast<int32_t>(g.values.size())};
      g.values.push_back(g.values[n.operands[1]]);
      n.kind = toOpKind(EK::Add);
      n.operands[1] = neg.results[0];
      g.nodes.insert(g.nodes.begin() + index, neg);
      return p;
    }
    case EK::MulScalar: {
      // x * c == (x * 2c) * 0.5
      Node first = n;
      first.scalar = 2 * n.scalar;
      first.results = {static_cast<int32_t>(g.values.size())};
      g.values.push_back(g.values[n.results[0]]);
      n.scalar = 0.5;
      n.operands = {first.results[0]};
      g.nodes.insert(g.nodes.begin() + index, first);
      return p;
    }
    default:
      break;
    }
  }
  return p;
}

/// Changes one node of `p`; the result may or may not compute the same.
Program mutate(Program p, std::mt19937_64 &rng) {
  Graph &g = p.graphs.front();
  Node &n = g.nodes[rng() % g.nodes.size()];
  // Feeds an input to the output instead of the last value.
  auto feedInput = [&] { g.outputs.front() = g.inputs[rng() % 3]; };
  std::optional<EK> fn = toElementwiseKind(n.kind);
  if (!fn) {
    feedInput();
    return p;
  }
  switch (*fn) {
  case EK::Add:
    n.kind = toOpKind(EK::Sub);
    break;
  case EK::Sub:
    std::swap(n.operands[0], n.operands[1]);
    break;
  case EK::Mul:
    n.kind = toOpKind(EK::Add);
    break;
  case EK::MulScalar:
    n.scalar = -n.scalar;
    break;
  case EK::Exp:
  case EK::Sqrt:
  case EK::Square:
    n.kind = toOpKind(EK::Neg);
    break;
  case EK::Div:
    n.kind = toOpKind(EK::Mul);
    break;
  default:
    feedInput();
    break;
  }
  return p;
}

double floatError(const Program &a, const Program &b, uint64_t seed) {
  std::vector<Tensor<double>> inputs = makeRandomFloatInputs(a, seed);
  FloatDomain domain;
  std::vector<Tensor<double>> outA, outB;
  std::string error;
  EXPECT_TRUE(
      succeeded(Interpreter<FloatDomain>(domain).run(a, inputs, outA, error)))
      << error;
  EXPECT_TRUE(
      succeeded(Interpreter<FloatDomain>(domain).run(b, inputs, outB, error)))
      << error;
  return maxRelativeError(outA, outB);
}

bool fieldEquivalent(const Program &a, const Program &b, uint64_t seed,
                     bool reduce = true) {
  std::string error;
  EquivalenceOptions options;
  options.seed = seed;
  options.reduceParallelDimensions = reduce;
  FailureOr<EquivalenceChecker> checker =
      EquivalenceChecker::create(a, options, error);
  EXPECT_TRUE(succeeded(checker)) << error;
  if (failed(checker))
    return false;
  FailureOr<EquivalenceVerdict> verdict = checker->check(b, error);
  EXPECT_TRUE(succeeded(verdict)) << error;
  return succeeded(verdict) && verdict->equivalent;
}

TEST(EquivalenceProperty, RewritesAreProvedEquivalent) {
  std::mt19937_64 rng(2026);
  for (uint64_t seed = 0; seed < 300; ++seed) {
    Program p = RandomProgramBuilder(seed).build();
    Program q = rewrite(p, rng);
    EXPECT_TRUE(fieldEquivalent(p, q, seed)) << "seed " << seed;
    EXPECT_LT(floatError(p, q, seed), kTolerance) << "seed " << seed;
  }
}

TEST(EquivalenceProperty, FieldVerdictMatchesFloatOnMutants) {
  std::mt19937_64 rng(11);
  int different = 0;
  for (uint64_t seed = 0; seed < 300; ++seed) {
    Program p = RandomProgramBuilder(seed + 1000).build();
    Program q = mutate(p, rng);
    bool equivalent = fieldEquivalent(p, q, seed);
    double error = floatError(p, q, seed);
    if (equivalent)
      EXPECT_LT(error, kTolerance) << "seed " << seed;
    else
      EXPECT_GT(error, kTolerance) << "seed " << seed;
    different += !equivalent;
  }
  // Most mutations must change the function (some hit dead nodes), or this
  // test says little.
  EXPECT_GT(different, 150);
}

// Checking at reduced sizes (ParallelDimensions.h) gives the verdict of the
// full-size check, on rewrites and on mutants alike.
TEST(EquivalenceProperty, ReducedChecksAgreeWithFullSizeChecks) {
  std::mt19937_64 rng(7);
  int reduced = 0, different = 0;
  for (uint64_t seed = 0; seed < 200; ++seed) {
    Program p = RandomProgramBuilder(seed + 2000).build();
    Program q = seed % 2 ? mutate(p, rng) : rewrite(p, rng);
    bool full = fieldEquivalent(p, q, seed, /*reduce=*/false);
    EXPECT_EQ(fieldEquivalent(p, q, seed), full) << "seed " << seed;
    reduced += !reduceParallelDimensions(p, q).reductions.empty();
    different += !full;
  }
  // Most random programs have a parallel dimension, and many mutants differ.
  EXPECT_GT(reduced, 100);
  EXPECT_GT(different, 40);
}

} // namespace
