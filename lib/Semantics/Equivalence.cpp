//===- Equivalence.cpp - Probabilistic equivalence of programs ------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Semantics/Equivalence.h"

#include "Mirage/Dialect/Common/ShapeRules.h"
#include "Mirage/Semantics/Interpreter.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace mlir::mirage::sem;
using mlir::mirage::ElementwiseKind;

namespace {

/// Random input values drawn between two polls of the deadline.
constexpr int64_t kDrawsPerPoll = int64_t(1) << 16;

uint64_t mixSeed(uint64_t seed, uint64_t salt) {
  uint64_t z = seed + salt * 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/// A row-major linear index as a multi-index.
SmallVector<int64_t, 4> delinearize(int64_t linear, ArrayRef<int64_t> shape) {
  SmallVector<int64_t, 4> index(shape.size());
  for (int64_t k = static_cast<int64_t>(shape.size()) - 1; k >= 0; --k) {
    index[k] = linear % shape[k];
    linear /= shape[k];
  }
  return index;
}

std::string describe(const ValueType &type) {
  std::string s;
  for (int64_t d : type.shape)
    s += std::to_string(d) + "x";
  return s + getElementTypeName(type.elementType).str();
}

LogicalResult checkSignatures(const Program &reference,
                              const Program &candidate, std::string &error) {
  auto compare = [&](StringRef what, ArrayRef<ValueType> expected,
                     ArrayRef<ValueType> actual) -> LogicalResult {
    if (expected.size() != actual.size()) {
      error = llvm::formatv("candidate has {0} {1}, the reference {2}",
                            actual.size(), what, expected.size());
      return failure();
    }
    for (auto [i, e, a] : llvm::enumerate(expected, actual))
      if (e.shape != a.shape) {
        error =
            llvm::formatv("candidate {0} {1} is {2}, the reference's is {3}",
                          what.drop_back(), i, describe(a), describe(e));
        return failure();
      }
    return success();
  };
  return failure(failed(compare("inputs", reference.getInputTypes(),
                                candidate.getInputTypes())) ||
                 failed(compare("outputs", reference.getOutputTypes(),
                                candidate.getOutputTypes())));
}

//===----------------------------------------------------------------------===//
// Static analysis for the error bound
//===----------------------------------------------------------------------===//

/// What one element of a value depends on, as a rational function of the
/// inputs and of the results of exp and keyed functions (fresh variables).
struct ElementStats {
  double numerator = 0;   // degree of the numerator
  double denominator = 0; // degree of the denominator
  double exps = 0;        // exp applications it depends on
  double keyed = 0;       // keyed-function applications it depends on
};

/// The sum of `n` terms like `t`, over distinct denominators.
ElementStats sumOf(const ElementStats &t, double n) {
  return {t.numerator + (n - 1) * t.denominator, n * t.denominator, n * t.exps,
          n * t.keyed};
}

ElementStats product(const ElementStats &a, const ElementStats &b) {
  return {a.numerator + b.numerator, a.denominator + b.denominator,
          a.exps + b.exps, a.keyed + b.keyed};
}

/// A fresh variable: the result of exp or a keyed function of `args`.
ElementStats fresh(const ElementStats &args, double extraKeyed) {
  return {1, 0, args.exps, args.keyed + extraKeyed};
}

class BoundAnalysis {
public:
  explicit BoundAnalysis(const Program &program) : program(program) {}

  /// Stats of each kernel output element.
  std::vector<ElementStats> run() {
    const Graph &g = program.getKernelGraph();
    std::vector<ElementStats> inputs(g.inputs.size(), ElementStats{1, 0, 0, 0});
    return runGraph(g, inputs);
  }

  /// Largest degree of an exp argument, and of a keyed-function argument.
  double expDegree = 0, keyedDegree = 0;
  /// Exp and keyed-function evaluations in the whole program: a bound on the
  /// distinct ones any element can depend on, tighter than the per-element
  /// counts when those count shared atoms more than once.
  double totalExps = 0, totalKeyed = 0;

private:
  std::vector<ElementStats> runGraph(const Graph &g,
                                     ArrayRef<ElementStats> inputStats) {
    std::vector<ElementStats> stats(g.values.size());
    for (auto [value, s] : llvm::zip(g.inputs, inputStats))
      stats[value] = s;
    for (const Node &node : g.nodes) {
      if (!node.results.empty()) {
        double evaluations =
            multiplicity *
            std::max<int64_t>(1, g.values[node.results[0]].getNumElements());
        if (node.kind == toOpKind(ElementwiseKind::Exp))
          totalExps += evaluations;
        if (isKeyed(node.kind))
          totalKeyed += evaluations;
      }
      SmallVector<ElementStats, 2> in;
      for (int32_t operand : node.operands)
        in.push_back(stats[operand]);
      std::vector<ElementStats> out = visit(node, g, in);
      for (auto [value, s] : llvm::zip(node.results, out))
        stats[value] = s;
    }
    std::vector<ElementStats> outputs;
    for (int32_t value : g.outputs)
      outputs.push_back(stats[value]);
    return outputs;
  }

  ElementStats keyedOf(const ElementStats &a) {
    keyedDegree = std::max(keyedDegree, a.numerator + a.denominator);
    return fresh(a, 1);
  }

  ElementStats visitElementwise(ElementwiseKind fn, ArrayRef<ElementStats> in) {
    const ElementStats &a = in[0];
    switch (fn) {
    case ElementwiseKind::Exp: {
      expDegree = std::max(expDegree, a.numerator + a.denominator);
      ElementStats atom = fresh(a, 0);
      atom.exps += 1;
      return atom;
    }
    case ElementwiseKind::Square:
      return product(a, a);
    case ElementwiseKind::Neg:
    case ElementwiseKind::MulScalar:
      return a;
    case ElementwiseKind::Sqrt:
    case ElementwiseKind::Silu:
    case ElementwiseKind::Gelu:
    case ElementwiseKind::Relu:
      return keyedOf(a);
    case ElementwiseKind::Rsqrt: {
      ElementStats r = keyedOf(a);
      return {0, 1, r.exps, r.keyed};
    }
    case ElementwiseKind::Add:
    case ElementwiseKind::Sub:
      return {std::max(a.numerator + in[1].denominator,
                       in[1].numerator + a.denominator),
              a.denominator + in[1].denominator, a.exps + in[1].exps,
              a.keyed + in[1].keyed};
    case ElementwiseKind::Mul:
      return product(a, in[1]);
    case ElementwiseKind::Div:
      return {a.numerator + in[1].denominator, a.denominator + in[1].numerator,
              a.exps + in[1].exps, a.keyed + in[1].keyed};
    case ElementwiseKind::Pow: {
      ElementStats both = product(a, in[1]);
      return keyedOf(both);
    }
    }
    llvm_unreachable("unknown elementwise kind");
  }

  std::vector<ElementStats> visit(const Node &node, const Graph &g,
                                  ArrayRef<ElementStats> in) {
    auto type = [&](int32_t value) -> const ValueType & {
      return g.values[value];
    };
    if (std::optional<ElementwiseKind> fn = toElementwiseKind(node.kind))
      return {visitElementwise(*fn, in)};
    const ElementStats &a = in.empty() ? ElementStats() : in[0];
    switch (node.kind) {
    case OpKind::InputLoader:
    case OpKind::OutputSaver:
    case OpKind::ClusterGather:
      return {a};
    case OpKind::Matmul:
      return {sumOf(product(a, in[1]), type(node.operands[0]).shape.back())};
    case OpKind::Reduction:
      return {sumOf(a, type(node.operands[0]).shape[node.dim] / node.size)};
    case OpKind::ReductionMax:
      // A keyed max folded over the dimension, as forloop_accum max over
      // the loop.
      return {foldMax(a, type(node.operands[0]).shape[node.dim])};
    case OpKind::RmsNorm:
      return {rms(a, node.size)};
    case OpKind::Concat: {
      const ElementStats &b = in[1];
      return {{std::max(a.numerator, b.numerator),
               std::max(a.denominator, b.denominator), std::max(a.exps, b.exps),
               std::max(a.keyed, b.keyed)}};
    }
    case OpKind::Chunk:
      return std::vector<ElementStats>(node.results.size(), a);
    case OpKind::ClusterReduce:
    case OpKind::ClusterReduceScatter:
      return {sumOf(a, currentClusterSize)};
    case OpKind::ForloopAccum: {
      const ValueType &input = type(node.operands[0]);
      double loop = static_cast<double>(currentForloop);
      double last = static_cast<double>(input.shape.back());
      switch (node.accum) {
      case AccumKind::Sum:
        return {sumOf(a, loop)};
      case AccumKind::SumLast:
        return {sumOf(a, loop * last)};
      case AccumKind::SumLastTo:
        return {sumOf(a, loop * last / node.size)};
      case AccumKind::RmsLast: {
        ElementStats r = keyedOf(sumOf(product(a, a), loop * last));
        return {{0, 1, r.exps, r.keyed}};
      }
      case AccumKind::Max:
        return {foldMax(a, loop)};
      }
      return {a};
    }
    case OpKind::ThreadGraph: {
      // The scalar body runs once per element of the result tile.
      double saved = multiplicity;
      multiplicity *= type(node.results[0]).getNumElements();
      std::vector<ElementStats> out = runGraph(program.graphs[node.body], in);
      multiplicity = saved;
      return out;
    }
    case OpKind::GraphDef: {
      const Graph &body = program.graphs[node.body];
      int64_t savedForloop = currentForloop;
      double savedCluster = currentClusterSize,
             savedMultiplicity = multiplicity;
      currentForloop = body.forloop;
      currentClusterSize = static_cast<double>(body.getClusterSize());
      multiplicity *= static_cast<double>(body.getNumBlocks()) * body.forloop;
      std::vector<ElementStats> out = runGraph(body, in);
      currentForloop = savedForloop;
      currentClusterSize = savedCluster;
      multiplicity = savedMultiplicity;
      return out;
    }
    }
    return {a};
  }

  /// The keyed max of `count` values like `a`, folded.
  ElementStats foldMax(const ElementStats &a, double count) {
    ElementStats r = sumOf(a, count);
    for (double i = 1; i < count; ++i)
      r = keyedOf(r);
    return r;
  }

  /// x / sqrt(mean of `size` squares): one keyed sqrt per element group.
  ElementStats rms(const ElementStats &x, int64_t size) {
    ElementStats root = keyedOf(sumOf(product(x, x), size));
    return {x.numerator, x.denominator + 1, x.exps + root.exps,
            x.keyed + root.keyed};
  }

  static bool isKeyed(OpKind kind) {
    if (std::optional<ElementwiseKind> fn = toElementwiseKind(kind)) {
      switch (*fn) {
      case ElementwiseKind::Sqrt:
      case ElementwiseKind::Rsqrt:
      case ElementwiseKind::Silu:
      case ElementwiseKind::Gelu:
      case ElementwiseKind::Relu:
      case ElementwiseKind::Pow:
        return true;
      default:
        return false;
      }
    }
    // rms_last and max apply keyed functions
    return kind == OpKind::RmsNorm || kind == OpKind::ForloopAccum ||
           kind == OpKind::ReductionMax;
  }

  const Program &program;
  int64_t currentForloop = 1;
  double currentClusterSize = 1;
  /// How many times the graph being visited runs (blocks x iterations, times
  /// tile elements inside a thread graph).
  double multiplicity = 1;
};

} // namespace

double mlir::mirage::sem::log2TrialErrorBound(const Program &reference,
                                              const Program &candidate) {
  BoundAnalysis ref(reference), cand(candidate);
  std::vector<ElementStats> r = ref.run(), c = cand.run();
  double expDegree = std::max({ref.expDegree, cand.expDegree, 1.0});
  double keyedDegree = std::max({ref.keyedDegree, cand.keyedDegree, 1.0});
  const double q = static_cast<double>(FieldDomain::kQ);
  const double p = static_cast<double>(FieldDomain::kP);
  double worst = 0;
  for (auto [a, b] : llvm::zip(r, c)) {
    // (1) two different exponents collide mod q; (2) the numerator of the
    // difference, or a denominator, vanishes mod p; (3) two keyed
    // applications on different arguments collide.
    double exps =
        std::min(a.exps, ref.totalExps) + std::min(b.exps, cand.totalExps);
    double degree =
        std::max(a.numerator + b.denominator, b.numerator + a.denominator) +
        a.denominator + b.denominator;
    double keyed =
        std::min(a.keyed, ref.totalKeyed) + std::min(b.keyed, cand.totalKeyed);
    double eps = exps * exps * expDegree / q +
                 (degree + keyed * keyed * keyedDegree) / p;
    worst = std::max(worst, eps);
  }
  return worst >= 1.0 ? 0.0 : std::log2(std::max(worst, 1.0 / p));
}

//===----------------------------------------------------------------------===//
// EquivalenceChecker
//===----------------------------------------------------------------------===//

FailureOr<EquivalenceChecker>
EquivalenceChecker::create(const Program &reference,
                           const EquivalenceOptions &options,
                           std::string &error, const Deadline &deadline) {
  if (options.maxTrials == 0 || options.trials > options.maxTrials) {
    error = "the number of trials must be between 1 and maxTrials";
    return failure();
  }
  // Before the trials' inputs are allocated.
  if (failed(checkEvaluationLimits(reference, sizeof(FieldValue),
                                   options.limits, error)))
    return failure();
  EquivalenceChecker checker(reference, options);
  // The first trial shows whether the reference can be checked at all: at
  // the smallest sizes its parallel dimensions allow, which evaluate the
  // same ops (the reference cut down against itself has no blocks, so every
  // parallel dimension goes down to one index).
  if (options.reduceParallelDimensions) {
    ReducedPair smallest = reduceParallelDimensions(reference, reference);
    if (!smallest.reductions.empty()) {
      if (failed(
              checker.getReducedChecker(smallest.reference, error, deadline)))
        return failure();
      return checker;
    }
  }
  if (failed(checker.getTrial(0, error, deadline)))
    return failure();
  return checker;
}

FailureOr<const EquivalenceChecker *>
EquivalenceChecker::getReducedChecker(const Program &reducedReference,
                                      std::string &error,
                                      const Deadline &deadline) const {
  std::string key;
  for (const ValueType &type : reducedReference.getInputTypes())
    key += mirage::formatShape(type.shape) + ";";
  std::lock_guard<std::mutex> lock(reduced->mutex);
  auto [position, inserted] = reduced->checkers.try_emplace(key);
  if (inserted) {
    EquivalenceOptions reducedOptions = options;
    reducedOptions.reduceParallelDimensions = false;
    FailureOr<EquivalenceChecker> created =
        create(reducedReference, reducedOptions, error, deadline);
    if (failed(created)) {
      reduced->checkers.erase(position);
      return failure();
    }
    position->second =
        std::make_unique<EquivalenceChecker>(std::move(*created));
  }
  return position->second.get();
}

FailureOr<const EquivalenceChecker::Trial *>
EquivalenceChecker::getTrial(unsigned index, std::string &error,
                             const Deadline &deadline) const {
  std::lock_guard<std::mutex> lock(*trialsMutex);
  while (trials.size() <= index) {
    unsigned trial = trials.size();
    uint64_t state = mixSeed(options.seed, 2 * trial);
    Trial t;
    for (const ValueType &type : reference.getInputTypes()) {
      // Large inputs take seconds to draw, and as long to fill with zeros
      // first: the values are appended to reserved (untouched) memory, and
      // the deadline is polled here too.
      Tensor<FieldValue> input;
      input.shape.assign(type.shape.begin(), type.shape.end());
      int64_t size = type.getNumElements();
      input.data.reserve(size);
      for (int64_t i = 0; i < size; ++i) {
        if (i % kDrawsPerPoll == 0 && deadline.hasPassed()) {
          error = "reference: " + deadline.describe(options.limits);
          return failure();
        }
        input.data.push_back(FieldDomain::random(state));
      }
      t.inputs.push_back(std::move(input));
    }
    FieldDomain domain(mixSeed(options.seed, 2 * trial + 1));
    if (failed(Interpreter<FieldDomain>(domain, options.limits)
                   .run(reference, t.inputs, t.outputs, error, deadline))) {
      error = "reference: " + error;
      return failure();
    }
    trials.push_back(std::move(t));
  }
  return &trials[index];
}

FailureOr<EquivalenceVerdict>
EquivalenceChecker::check(const Program &candidate, std::string &error,
                          const Deadline &deadline) const {
  if (failed(checkSignatures(reference, candidate, error)))
    return failure();
  if (!options.reduceParallelDimensions)
    return checkFullSize(candidate, error, deadline);
  ReducedPair pair = reduceParallelDimensions(reference, candidate);
  if (pair.reductions.empty())
    return checkFullSize(candidate, error, deadline);
  FailureOr<const EquivalenceChecker *> checker =
      getReducedChecker(pair.reference, error, deadline);
  if (failed(checker))
    return failure();
  FailureOr<EquivalenceVerdict> verdict =
      (*checker)->checkFullSize(pair.candidate, error, deadline);
  if (succeeded(verdict))
    verdict->reductions = std::move(pair.reductions);
  return verdict;
}

FailureOr<EquivalenceVerdict>
EquivalenceChecker::checkFullSize(const Program &candidate, std::string &error,
                                  const Deadline &deadline) const {
  double perTrial = log2TrialErrorBound(reference, candidate);
  unsigned numTrials = options.trials;
  if (numTrials == 0) {
    double needed = perTrial < 0 ? std::ceil(options.targetLog2Bound / perTrial)
                                 : options.maxTrials;
    numTrials = static_cast<unsigned>(
        std::clamp(needed, 2.0, static_cast<double>(options.maxTrials)));
  }
  EquivalenceVerdict verdict;
  verdict.trials = numTrials;
  for (unsigned index = 0; index < numTrials; ++index) {
    FailureOr<const Trial *> trial = getTrial(index, error, deadline);
    if (failed(trial))
      return failure();
    FieldDomain domain(mixSeed(options.seed, 2 * index + 1));
    std::vector<Tensor<FieldValue>> results;
    if (failed(Interpreter<FieldDomain>(domain, options.limits)
                   .run(candidate, (*trial)->inputs, results, error, deadline)))
      return failure();
    for (auto [o, expected, actual] :
         llvm::enumerate((*trial)->outputs, results)) {
      for (int64_t i = 0, e = expected.size(); i < e; ++i) {
        if (FieldDomain::equal(expected.data[i], actual.data[i]))
          continue;
        verdict.mismatch = Mismatch{index, static_cast<unsigned>(o),
                                    delinearize(i, expected.shape)};
        return verdict;
      }
    }
  }
  verdict.equivalent = true;
  verdict.log2Bound = numTrials * perTrial;
  return verdict;
}

//===----------------------------------------------------------------------===//
// Float helpers
//===----------------------------------------------------------------------===//

std::vector<Tensor<double>>
mlir::mirage::sem::makeRandomFloatInputs(const Program &program,
                                         uint64_t seed) {
  uint64_t state = mixSeed(seed, 0x5eed);
  std::vector<Tensor<double>> inputs;
  for (const ValueType &type : program.getInputTypes()) {
    Tensor<double> t(type.shape);
    for (double &v : t.data) {
      state = mixSeed(state, 1);
      v = static_cast<double>(state >> 11) * 0x1.0p-52 - 1.0;
    }
    inputs.push_back(std::move(t));
  }
  return inputs;
}

double mlir::mirage::sem::maxRelativeError(ArrayRef<Tensor<double>> expected,
                                           ArrayRef<Tensor<double>> actual) {
  double worst = 0;
  for (auto [e, a] : llvm::zip(expected, actual)) {
    double diff = 0, norm = 0;
    for (auto [x, y] : llvm::zip(e.data, a.data)) {
      // Non-finite values must match exactly (NaN where NaN, same infinity).
      if (!std::isfinite(x) || !std::isfinite(y)) {
        if (!(std::isnan(x) && std::isnan(y)) && x != y)
          return INFINITY;
        continue;
      }
      diff += (x - y) * (x - y);
      norm += x * x;
    }
    worst =
        std::max(worst, norm > 0 ? std::sqrt(diff / norm) : std::sqrt(diff));
  }
  return worst;
}
