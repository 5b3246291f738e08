//===- BlockGraphSearchTest.cpp - The µGraph search
//------------------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Search/BlockGraphSearch.h"
#include "Mirage/Search/DimensionLabels.h"
#include "Mirage/Search/KernelPrefix.h"
#include "Mirage/Search/Materialize.h"
#include "Mirage/Search/ProgramSchedule.h"
#include "Mirage/Search/Stabilize.h"
#include "Mirage/Support/Chip.h"

#include "Mirage/InitAllDialects.h"
#include "Mirage/Semantics/Equivalence.h"
#include "Mirage/Semantics/Import.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/SmallVectorExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <gtest/gtest.h>

#include <mutex>

using namespace mlir;
using namespace mlir::mirage;
using namespace mlir::mirage::search;

namespace {

class BlockGraphSearchTest : public ::testing::Test {
protected:
  BlockGraphSearchTest() {
    DialectRegistry registry;
    registry.insert<func::FuncDialect>();
    registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  sem::Program parse(StringRef source) {
    module = parseSourceString<ModuleOp>(source, &context);
    EXPECT_TRUE(module);
    auto function = *module->getOps<func::FuncOp>().begin();
    FailureOr<sem::Program> program = sem::buildProgram(function);
    EXPECT_TRUE(succeeded(program));
    return *program;
  }

  /// The verified candidates of the last parsed `reference`, cheapest
  /// first, scheduled as the code generator schedules them (none when the
  /// search fails, which the test reports).
  std::vector<RankedProgram> search(const sem::Program &reference,
                                    BlockSearchOptions options,
                                    BlockSearchStatistics &statistics) {
    options.schedule = getScheduler(128, *options.chip, &context);
    std::string error;
    FailureOr<std::vector<RankedProgram>> found =
        searchBlockGraphs(reference, options, statistics, error);
    EXPECT_TRUE(succeeded(found)) << error;
    return succeeded(found) ? std::move(*found) : std::vector<RankedProgram>();
  }

  /// The one split µGraph (two graph_defs) the search finds for
  /// `reference` with one-kernel launches off, or nothing (reported).
  std::optional<sem::Program> searchSplit(const sem::Program &reference,
                                          BlockSearchStatistics &statistics) {
    BlockSearchOptions options;
    options.singleKernels = false;
    std::vector<RankedProgram> found = search(reference, options, statistics);
    EXPECT_EQ(found.size(), 1u);
    if (found.size() != 1 || found.front().program.graphs.size() != 3) {
      ADD_FAILURE() << "no split µGraph";
      return std::nullopt;
    }
    return std::move(found.front().program);
  }

  /// Expects `candidate` proven equivalent to `reference`.
  static void expectEquivalent(const sem::Program &reference,
                               const sem::Program &candidate) {
    std::string error;
    FailureOr<sem::EquivalenceChecker> checker =
        sem::EquivalenceChecker::create(reference, sem::EquivalenceOptions(),
                                        error);
    ASSERT_TRUE(succeeded(checker)) << error;
    FailureOr<sem::EquivalenceVerdict> verdict =
        checker->check(candidate, error);
    ASSERT_TRUE(succeeded(verdict)) << error;
    EXPECT_TRUE(verdict->equivalent);
  }

  /// The kinds of the body's nodes, in order.
  static std::vector<sem::OpKind> bodyKinds(const sem::Program &program) {
    std::vector<sem::OpKind> kinds;
    for (const sem::Node &node : program.graphs[1].nodes)
      kinds.push_back(node.kind);
    return kinds;
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

TEST_F(BlockGraphSearchTest, FindsTheFusedRmsNormLinear) {
  // The paper's RMSNorm + Linear, small: the search must move the
  // normalisation after the matmul, accumulating the row's root mean square
  // with rms_last across the for-loop over the contraction dimension.
  sem::Program reference = parse(R"mlir(
    func.func @rmsnorm_linear(%x: tensor<2x64xf16>, %w: tensor<64x32xf16>) -> tensor<2x32xf16> {
      %n = mirage_kernel.rms_norm %x size 64 : tensor<2x64xf16>
      %o = mirage_kernel.matmul %n, %w : tensor<2x64xf16>, tensor<64x32xf16> -> tensor<2x32xf16>
      return %o : tensor<2x32xf16>
    })mlir");
  BlockSearchOptions options;
  options.gridSizes = {4};
  options.forloopRanges = {4};
  options.maxOps = 4;
  options.maxCandidates = 1;
  BlockSearchStatistics statistics;
  std::vector<RankedProgram> found = search(reference, options, statistics);
  ASSERT_EQ(found.size(), 1u);
  const sem::Program &fused = found.front().program;
  EXPECT_EQ(fused.getKernelGraph().nodes.size(), 1u);
  EXPECT_EQ(fused.graphs[1].forloop, 4);
  std::vector<sem::OpKind> kinds = bodyKinds(fused);
  EXPECT_TRUE(llvm::is_contained(kinds, sem::OpKind::Matmul));
  EXPECT_TRUE(llvm::is_contained(kinds, sem::OpKind::ForloopAccum));
  EXPECT_EQ(kinds.back(), sem::OpKind::OutputSaver);
  EXPECT_GT(statistics.pruned, 0);
  EXPECT_EQ(statistics.verified, 1);
}

TEST_F(BlockGraphSearchTest, RejectsProgramsOutsideTheFragment) {
  sem::Program reference = parse(R"mlir(
    func.func @two_outputs(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
      %e = mirage_kernel.exp %x : tensor<4x8xf32>
      return %e, %e : tensor<4x8xf32>, tensor<4x8xf32>
    })mlir");
  BlockSearchStatistics statistics;
  std::string error;
  EXPECT_TRUE(failed(
      searchBlockGraphs(reference, BlockSearchOptions(), statistics, error)));
  EXPECT_EQ(error, "the search handles references with one output");
}

} // namespace

/// The paper's attention (exp / sum(exp), no scaling) of `rows` query rows
/// of `dim` elements over `keys` keys.
std::string getAttention(int64_t rows, int64_t dim, int64_t keys) {
  return llvm::formatv(R"mlir(
  func.func @attention(%q: tensor<1x{0}x{1}xf16>, %k: tensor<1x{1}x{2}xf16>, %v: tensor<1x{2}x{1}xf16>) -> tensor<1x{0}x{1}xf16> {{
    %s = mirage_kernel.matmul %q, %k : tensor<1x{0}x{1}xf16>, tensor<1x{1}x{2}xf16> -> tensor<1x{0}x{2}xf16>
    %e = mirage_kernel.exp %s : tensor<1x{0}x{2}xf16>
    %r = mirage_kernel.reduction %e dim 2 : tensor<1x{0}x{2}xf16> -> tensor<1x{0}x1xf16>
    %d = mirage_kernel.div %e, %r : tensor<1x{0}x{2}xf16>, tensor<1x{0}x1xf16> -> tensor<1x{0}x{2}xf16>
    %o = mirage_kernel.matmul %d, %v : tensor<1x{0}x{2}xf16>, tensor<1x{2}x{1}xf16> -> tensor<1x{0}x{1}xf16>
    return %o : tensor<1x{0}x{1}xf16>
  })mlir",
                       rows, dim, keys)
      .str();
}

/// The attention of most tests, small.
const std::string kAttention = getAttention(16, 8, 256);

TEST_F(BlockGraphSearchTest, SearchesTheRestAfterALeadingOp) {
  // Attention's Q·K reads only inputs: kept as a library GEMM, the rest is
  // a reference over V and the scores, and its candidates composed after
  // the GEMM compute attention.
  sem::Program reference = parse(kAttention);
  ASSERT_EQ(getLeadingOps(reference), SmallVector<int32_t>{0});
  PrefixCut cut = cutAfter(reference, 0);
  const sem::Graph &rest = cut.rest.getKernelGraph();
  ASSERT_EQ(rest.inputs.size(), 2u);
  EXPECT_EQ(rest.values[rest.inputs[0]].shape,
            (SmallVector<int64_t>{1, 256, 8}));
  EXPECT_EQ(rest.values[rest.inputs[1]].shape,
            (SmallVector<int64_t>{1, 16, 256}));
  EXPECT_EQ(rest.nodes.size(), 4u);

  BlockSearchOptions options;
  options.forloopRanges = {1, 4};
  BlockSearchStatistics statistics;
  std::vector<RankedProgram> found = search(cut.rest, options, statistics);
  ASSERT_FALSE(found.empty());
  sem::Program composed = composeAfter(reference, cut, found[0].program);
  EXPECT_EQ(composed.getKernelGraph().nodes[0].kind, sem::OpKind::Matmul);
  expectEquivalent(reference, composed);

  // splitAfter takes the composition apart again.
  PrefixCut again;
  std::optional<sem::Program> split = splitAfter(reference, composed, again);
  ASSERT_TRUE(split.has_value());
  EXPECT_EQ(again.node, 0);
  EXPECT_EQ(getCandidateKey(*split), getCandidateKey(found[0].program));
  // The reference itself is not of that form.
  EXPECT_FALSE(splitAfter(reference, reference, again).has_value());
}

/// A gated MLP with its down projection and residual, small: two matmul
/// stages joined by one value (silu(x W1) * (x W2)).
constexpr const char *kGatedMlp = R"mlir(
  func.func @mlp(%x: tensor<1x64xf16>, %w1: tensor<64x128xf16>, %w2: tensor<64x128xf16>, %w3: tensor<128x64xf16>) -> tensor<1x64xf16> {
    %n = mirage_kernel.rms_norm %x size 64 eps 1.0e-6 : tensor<1x64xf16>
    %g = mirage_kernel.matmul %n, %w1 : tensor<1x64xf16>, tensor<64x128xf16> -> tensor<1x128xf16>
    %s = mirage_kernel.silu %g : tensor<1x128xf16>
    %u = mirage_kernel.matmul %n, %w2 : tensor<1x64xf16>, tensor<64x128xf16> -> tensor<1x128xf16>
    %m = mirage_kernel.mul %s, %u : tensor<1x128xf16>, tensor<1x128xf16> -> tensor<1x128xf16>
    %d = mirage_kernel.matmul %m, %w3 : tensor<1x128xf16>, tensor<128x64xf16> -> tensor<1x64xf16>
    %o = mirage_kernel.add %x, %d : tensor<1x64xf16>, tensor<1x64xf16> -> tensor<1x64xf16>
    return %o : tensor<1x64xf16>
  })mlir";

TEST_F(BlockGraphSearchTest, SearchesTheTwoSidesOfACutApart) {
  // The MLP is cut at silu(x W1) * (x W2), the one value its down
  // projection reads: each side is searched as a reference of its own, and
  // their candidates composed compute the MLP. Attention has no cut: after
  // its last value but one only a matmul is left (that is the projection
  // prefix's form).
  sem::Program reference = parse(kGatedMlp);
  EXPECT_TRUE(getCuts(parse(kAttention)).empty());
  ASSERT_EQ(getCuts(reference), SmallVector<int32_t>{4});
  std::optional<PrefixCut> cut = cutAt(reference, 4);
  ASSERT_TRUE(cut.has_value());
  EXPECT_EQ(cut->prefix.getKernelGraph().nodes.size(), 5u);
  EXPECT_EQ(cut->prefixInputs.size(), 3u);
  const sem::Graph &rest = cut->rest.getKernelGraph();
  EXPECT_EQ(rest.nodes.size(), 2u);
  ASSERT_EQ(rest.inputs.size(), 3u); // x, W3 and the cut value
  EXPECT_EQ(rest.values[rest.inputs[2]].shape, (SmallVector<int64_t>{1, 128}));
  // Not a cut: W1's product is read after the value at node 3 too.
  EXPECT_FALSE(cutAt(reference, 3).has_value());

  BlockSearchOptions options;
  options.forloopRanges = {1, 2, 4};
  BlockSearchStatistics statistics;
  std::vector<RankedProgram> prefixes =
      search(cut->prefix, options, statistics);
  std::vector<RankedProgram> rests = search(cut->rest, options, statistics);
  ASSERT_FALSE(prefixes.empty());
  ASSERT_FALSE(rests.empty());
  // Both sides searched, and either side as written.
  for (auto [prefix, rest] :
       {std::pair{&prefixes[0].program, &rests[0].program},
        std::pair{&cut->prefix, &rests[0].program},
        std::pair{&prefixes[0].program, &cut->rest}})
    expectEquivalent(reference, compose(reference, *cut, *prefix, *rest));
}

/// A residual add and a norm + projection of its sum, both returned, with a
/// second projection of the norm, the sum once more and an input.
constexpr StringLiteral kSeveralOutputs = R"mlir(
  func.func @outputs(%x: tensor<2x64xf16>, %r: tensor<2x64xf16>,
                     %w: tensor<64x32xf16>, %v: tensor<64x32xf16>)
      -> (tensor<2x64xf16>, tensor<2x32xf16>, tensor<2x32xf16>,
          tensor<2x64xf16>, tensor<2x64xf16>) {
    %h = mirage_kernel.add %x, %r : tensor<2x64xf16>, tensor<2x64xf16> -> tensor<2x64xf16>
    %n = mirage_kernel.rms_norm %h size 64 eps 1.0e-6 : tensor<2x64xf16>
    %y = mirage_kernel.matmul %n, %w : tensor<2x64xf16>, tensor<64x32xf16> -> tensor<2x32xf16>
    %z = mirage_kernel.matmul %n, %v : tensor<2x64xf16>, tensor<64x32xf16> -> tensor<2x32xf16>
    return %h, %y, %z, %h, %x : tensor<2x64xf16>, tensor<2x32xf16>, tensor<2x32xf16>, tensor<2x64xf16>, tensor<2x64xf16>
  })mlir";

TEST_F(BlockGraphSearchTest, SearchesSeveralOutputsOneAtATime) {
  // One part per output an op computes: the sum, and each projection,
  // which reads the sum as an input and recomputes the norm (a value no
  // output is). The input returned and the sum returned twice need no
  // part of their own.
  sem::Program reference = parse(kSeveralOutputs);
  const sem::Graph &kernel = reference.getKernelGraph();
  SmallVector<OutputPart> parts = getOutputParts(reference);
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_EQ(parts[0].output, kernel.outputs[0]);
  EXPECT_EQ(parts[0].inputs,
            (SmallVector<int32_t>{kernel.inputs[0], kernel.inputs[1]}));
  for (int i : {1, 2}) {
    const sem::Graph &part = parts[i].program.getKernelGraph();
    EXPECT_EQ(part.nodes.size(), 2u); // rms_norm, matmul
    EXPECT_EQ(parts[i].inputs,
              (SmallVector<int32_t>{kernel.inputs[i + 1], kernel.outputs[0]}));
    EXPECT_TRUE(succeeded([&] {
      std::string error;
      return checkSearchable(parts[i].program, error);
    }()));
  }
  std::string error;
  EXPECT_TRUE(failed(checkSearchable(reference, error)));
  EXPECT_TRUE(succeeded(checkSearchableOps(reference, error)));

  // Every part as written is the reference; each part searched, or a mix.
  SmallVector<const sem::Program *> asWritten = llvm::map_to_vector(
      parts, [](const OutputPart &part) { return &part.program; });
  expectEquivalent(reference, composeParts(reference, parts, asWritten));
  BlockSearchOptions options;
  options.forloopRanges = {1, 2};
  BlockSearchStatistics statistics;
  SmallVector<const sem::Program *> searched;
  std::vector<std::vector<RankedProgram>> found;
  for (const OutputPart &part : parts)
    found.push_back(search(part.program, options, statistics));
  for (const auto &candidates : found) {
    ASSERT_FALSE(candidates.empty());
    searched.push_back(&candidates.front().program);
  }
  sem::Program composed = composeParts(reference, parts, searched);
  EXPECT_EQ(composed.getKernelGraph().outputs.size(), 5u);
  expectEquivalent(reference, composed);
  searched[1] = asWritten[1];
  expectEquivalent(reference, composeParts(reference, parts, searched));
}

/// The complete candidates a search of `reference` with `options`
/// generates, in the order found (before they are scheduled or verified).
static std::vector<sem::Program> generate(const sem::Program &reference,
                                          BlockSearchOptions options,
                                          MLIRContext &context) {
  std::vector<sem::Program> generated;
  std::mutex mutex;
  options.observe = [&](const sem::Program &program) {
    std::lock_guard<std::mutex> lock(mutex);
    generated.push_back(program);
  };
  options.schedule = getScheduler(128, *options.chip, &context);
  BlockSearchStatistics statistics;
  std::string error;
  EXPECT_TRUE(
      succeeded(searchBlockGraphs(reference, options, statistics, error)))
      << error;
  return generated;
}

/// The kinds of the kernel graph's nodes, in order.
static std::vector<sem::OpKind> kernelKinds(const sem::Program &program) {
  std::vector<sem::OpKind> kinds;
  for (const sem::Node &node : program.getKernelGraph().nodes)
    kinds.push_back(node.kind);
  return kinds;
}

TEST_F(BlockGraphSearchTest, HoistsTheFinalOpToKernelLevel) {
  // Each candidate whose last body op is a binary elementwise op of saved
  // tiles also comes with that op at kernel level, on the graph_def's two
  // outputs: the public implementation's gated MLPs (silu(X W1) and X W2
  // saved apart, multiplied at kernel level).
  sem::Program reference = parse(R"mlir(
    func.func @gated_mlp(%x: tensor<2x64xf16>, %w1: tensor<64x32xf16>, %w2: tensor<64x32xf16>) -> tensor<2x32xf16> {
      %g = mirage_kernel.matmul %x, %w1 : tensor<2x64xf16>, tensor<64x32xf16> -> tensor<2x32xf16>
      %a = mirage_kernel.silu %g : tensor<2x32xf16>
      %u = mirage_kernel.matmul %x, %w2 : tensor<2x64xf16>, tensor<64x32xf16> -> tensor<2x32xf16>
      %o = mirage_kernel.mul %a, %u : tensor<2x32xf16>, tensor<2x32xf16> -> tensor<2x32xf16>
      return %o : tensor<2x32xf16>
    })mlir");
  BlockSearchOptions options;
  options.gridSizes = {2};
  options.forloopRanges = {2};
  std::vector<sem::Program> generated = generate(reference, options, context);
  const std::vector<sem::OpKind> hoistedKinds = {
      sem::OpKind::GraphDef, sem::toOpKind(ElementwiseKind::Mul)};
  auto hoisted = llvm::find_if(generated, [&](const sem::Program &program) {
    return kernelKinds(program) == hoistedKinds;
  });
  ASSERT_NE(hoisted, generated.end());
  EXPECT_EQ(hoisted->getKernelGraph().nodes[0].results.size(), 2u);
  expectEquivalent(reference, *hoisted);
  // Each hoisted form comes right after its fused twin (one thread: the
  // observer sees them in the order the worker builds them): the same
  // body, saving the product instead of its operands.
  for (auto [index, program] : llvm::enumerate(generated)) {
    if (kernelKinds(program) != hoistedKinds)
      continue;
    ASSERT_GT(index, 0u);
    const sem::Program &twin = generated[index - 1];
    EXPECT_EQ(kernelKinds(twin),
              std::vector<sem::OpKind>{sem::OpKind::GraphDef});
    EXPECT_EQ(twin.graphs[1].grid, program.graphs[1].grid);
    EXPECT_EQ(twin.graphs[1].forloop, program.graphs[1].forloop);
    EXPECT_EQ(twin.graphs[1].outputs.size(), 1u);
  }
}

TEST_F(BlockGraphSearchTest, HoistsTheCombiningKernelsDivision) {
  // Split attention with the combining kernel's division at kernel level:
  // the combining kernel saves the summed numerator and denominator.
  sem::Program reference = parse(kAttention);
  BlockSearchOptions options;
  options.singleKernels = false;
  options.forloopRanges = {1, 2};
  std::vector<sem::Program> generated = generate(reference, options, context);
  const std::vector<sem::OpKind> hoistedKinds = {
      sem::OpKind::GraphDef, sem::OpKind::GraphDef,
      sem::toOpKind(ElementwiseKind::Div)};
  auto hoisted = llvm::find_if(generated, [&](const sem::Program &program) {
    return kernelKinds(program) == hoistedKinds;
  });
  ASSERT_NE(hoisted, generated.end());
  EXPECT_EQ(hoisted->getKernelGraph().nodes[1].results.size(), 2u);
  expectEquivalent(reference, *hoisted);
}

TEST_F(BlockGraphSearchTest, SumsRowsStridedOnlyInSplitFirstKernels) {
  // The first kernel of a split µGraph may sum a row's columns, strided, to
  // the output's width (`sum_last_to 8`), which the combining kernel sums
  // whole; a one-kernel µGraph never does.
  sem::Program reference = parse(kAttention);
  BlockSearchOptions options;
  options.forloopRanges = {2};
  std::vector<sem::Program> generated = generate(reference, options, context);
  auto sumsStrided = [](const sem::Graph &body) {
    return llvm::any_of(body.nodes, [](const sem::Node &node) {
      return node.kind == sem::OpKind::ForloopAccum &&
             node.accum == sem::AccumKind::SumLastTo;
    });
  };
  // The abstract expressions count a sum's terms, not which: the verifier
  // has the last word, and one of these candidates is right.
  std::string error;
  FailureOr<sem::EquivalenceChecker> checker = sem::EquivalenceChecker::create(
      reference, sem::EquivalenceOptions(), error);
  ASSERT_TRUE(succeeded(checker)) << error;
  int64_t strided = 0, equivalent = 0;
  for (const sem::Program &program : generated) {
    if (program.graphs.size() != 3 || !sumsStrided(program.graphs[1]))
      continue;
    ++strided;
    FailureOr<sem::EquivalenceVerdict> verdict = checker->check(program, error);
    ASSERT_TRUE(succeeded(verdict)) << error;
    equivalent += verdict->equivalent;
    if (equivalent)
      break;
  }
  EXPECT_GT(strided, 0);
  EXPECT_EQ(equivalent, 1);
  EXPECT_TRUE(llvm::none_of(generated, [&](const sem::Program &program) {
    return program.graphs.size() == 2 && sumsStrided(program.graphs[1]);
  }));
}

TEST_F(BlockGraphSearchTest, CombinesPartsWithAnInputTheyLack) {
  // Attention after its Q·K: a first kernel that splits the keys may save
  // only the numerators' parts; the combining kernel then reads the scores
  // too and takes their rows' sums of exp itself (the public
  // implementation's MHA forms 17 to 20). It still combines every part.
  sem::Program reference = cutAfter(parse(kAttention), 0).rest;
  BlockSearchOptions options;
  options.singleKernels = false;
  options.forloopRanges = {1, 2};
  std::vector<sem::Program> generated = generate(reference, options, context);
  auto readsInput = [&](const sem::Program &program) {
    const sem::Graph &kernel = program.getKernelGraph();
    return program.graphs.size() == 3 &&
           llvm::any_of(kernel.nodes.back().operands, [&](int32_t operand) {
             return llvm::is_contained(kernel.inputs, operand);
           });
  };
  auto found = llvm::find_if(generated, readsInput);
  ASSERT_NE(found, generated.end());
  const sem::Node &combining = found->getKernelGraph().nodes.back();
  const sem::Node &first = found->getKernelGraph().nodes.front();
  // The scores (the rest's second input), after the parts.
  EXPECT_EQ(combining.operands.back(), found->getKernelGraph().inputs[1]);
  EXPECT_EQ(combining.operands.size(), first.results.size() + 1);
  for (const sem::Graph &body : llvm::drop_begin(found->graphs))
    for (int32_t input : body.inputs)
      EXPECT_TRUE(llvm::any_of(body.nodes, [&](const sem::Node &node) {
        return llvm::is_contained(node.operands, input);
      }));
  expectEquivalent(reference, *found);

  // For an observer, the same µGraph with the combining kernel's `exp` of
  // the scores at kernel level, between the kernels (the public
  // implementation's MHA forms 15 and 16), right after its fused twin.
  const std::vector<sem::OpKind> hoistedKinds = {
      sem::OpKind::GraphDef, sem::toOpKind(ElementwiseKind::Exp),
      sem::OpKind::GraphDef};
  auto hoisted = llvm::find_if(generated, [&](const sem::Program &program) {
    return kernelKinds(program) == hoistedKinds;
  });
  ASSERT_NE(hoisted, generated.end());
  ASSERT_NE(hoisted, generated.begin());
  EXPECT_TRUE(readsInput(*std::prev(hoisted)));
  EXPECT_EQ(hoisted->getKernelGraph().nodes[1].operands[0],
            hoisted->getKernelGraph().inputs[1]);
  expectEquivalent(reference, *hoisted);
}

TEST_F(BlockGraphSearchTest, LabelsAttentionDimensions) {
  // Q's head dimension is contracted (reduced) although V's, of the same
  // extent, is kept; the key/value dimension is reduced; the batch and query
  // dimensions are the output's.
  sem::Program reference = parse(kAttention);
  DimensionLabels labels = labelDimensions(reference);
  ASSERT_EQ(labels.inputs.size(), 3u);
  const auto &q = labels.inputs[0], &k = labels.inputs[1],
             &v = labels.inputs[2];
  EXPECT_EQ(q[0], labels.output[0]);
  EXPECT_EQ(k[0], labels.output[0]);
  EXPECT_EQ(v[0], labels.output[0]);
  EXPECT_EQ(q[1], labels.output[1]);
  EXPECT_EQ(v[2], labels.output[2]);
  EXPECT_EQ(q[2], k[1]);
  EXPECT_EQ(k[2], v[1]);
  EXPECT_TRUE(labels.isReduced(q[2]));
  EXPECT_TRUE(labels.isReduced(k[2]));
  EXPECT_FALSE(labels.isReduced(v[2]));
  EXPECT_NE(q[2], v[2]);
}

TEST_F(BlockGraphSearchTest, FindsSplitAttention) {
  // With one-kernel µGraphs off, the search finds the split-KV pair: partial
  // numerators and denominators over slices of the keys, then a combining
  // kernel.
  sem::Program reference = parse(kAttention);
  BlockSearchStatistics statistics;
  std::optional<sem::Program> program = searchSplit(reference, statistics);
  ASSERT_TRUE(program);
  EXPECT_EQ(program->getKernelGraph().nodes.size(), 2u);
  // The first kernel splits the keys over its y axis and saves two parts.
  EXPECT_GT(program->graphs[1].grid[1], 1);
  EXPECT_EQ(program->graphs[1].outputs.size(), 2u);
  EXPECT_GE(statistics.verified, 1);
  // The combining kernel's threads are the search's choice: a thread for
  // 16 elements of its largest tile.
  EXPECT_EQ(program->graphs[2].threads, getTileThreads(program->graphs[2], 16));
}

/// Whether a graph_def of `program` is launched as clusters.
static bool hasCluster(const sem::Program &program) {
  return llvm::any_of(program.graphs, [](const sem::Graph &graph) {
    return graph.getClusterSize() > 1;
  });
}

/// Whether a graph_def of `program` holds a node of kind `kind`.
static bool holds(const sem::Program &program, sem::OpKind kind) {
  return llvm::any_of(program.graphs, [&](const sem::Graph &graph) {
    return llvm::any_of(
        graph.nodes, [&](const sem::Node &node) { return node.kind == kind; });
  });
}

TEST_F(BlockGraphSearchTest, FinishesSplitAttentionInACluster) {
  // The split-KV pair in one kernel: grid x splits the keys and is one
  // cluster, whose cluster_reduce_scatter sums the partial numerators and
  // leaves each block a chunk of the output's columns, and cluster_reduce
  // the denominators; only on a chip with clusters.
  sem::Program reference = parse(kAttention);
  BlockSearchOptions options;
  options.forloopRanges = {2};
  options.gridSizes = {2};
  options.largestGridSize = 2;
  std::vector<sem::Program> generated = generate(reference, options, context);
  auto clustered = llvm::find_if(generated, [](const sem::Program &program) {
    return holds(program, sem::OpKind::ClusterReduceScatter);
  });
  ASSERT_NE(clustered, generated.end());
  const sem::Graph &body = clustered->graphs[1];
  EXPECT_EQ(clustered->graphs.size(), 2u);
  EXPECT_EQ(body.cluster[0], body.grid[0]);
  EXPECT_TRUE(holds(*clustered, sem::OpKind::ClusterReduce));
  expectEquivalent(reference, *clustered);
  options.chip = lookupChip("sm_80");
  EXPECT_TRUE(llvm::none_of(generate(reference, options, context), hasCluster));
}

/// RMSNorm of 8 rows of 4096 elements, without an epsilon.
constexpr const char *kRmsNorm = R"mlir(
  func.func @norm(%h: tensor<8x4096xf16>) -> tensor<8x4096xf16> {
    %o = mirage_kernel.rms_norm %h size 4096 : tensor<8x4096xf16>
    return %o : tensor<8x4096xf16>
  })mlir";

TEST_F(BlockGraphSearchTest, SpreadsANormsRowOverACluster) {
  // Each block of a cluster squares and sums its part of the row,
  // cluster_reduce sums the parts, and each block scales its part: verified
  // like any candidate. Not with clusters off, nor on a chip without them.
  sem::Program reference = parse(kRmsNorm);
  BlockSearchOptions options;
  options.forloopRanges = {1};
  options.maxCandidates = 1000;
  BlockSearchStatistics statistics;
  std::vector<RankedProgram> found = search(reference, options, statistics);
  auto clustered = llvm::find_if(found, [](const RankedProgram &candidate) {
    return hasCluster(candidate.program);
  });
  ASSERT_NE(clustered, found.end());
  EXPECT_TRUE(holds(clustered->program, sem::OpKind::ClusterReduce));
  const sem::Graph &body = clustered->program.graphs[1];
  EXPECT_EQ(body.cluster[0], body.grid[0]);
  // A cluster launch costs what the chip says besides its kernel: the
  // unclustered candidates rank first.
  EXPECT_FALSE(hasCluster(found.front().program));
  options.clusters = false;
  EXPECT_TRUE(llvm::none_of(generate(reference, options, context), hasCluster));
  options.clusters = true;
  options.chip = lookupChip("sm_80");
  EXPECT_TRUE(llvm::none_of(generate(reference, options, context), hasCluster));
}

TEST_F(BlockGraphSearchTest, GivesOddQueryRowsCombiningBlocks) {
  // A GQA group of 7 query heads: no listed grid size divides 7, but the
  // combining kernel still gets a block per row (7 is among the search's
  // sizes for an extent that is not a power of two).
  sem::Program reference = parse(getAttention(7, 16, 256));
  BlockSearchStatistics statistics;
  std::optional<sem::Program> program = searchSplit(reference, statistics);
  ASSERT_TRUE(program);
  EXPECT_TRUE(llvm::is_contained(program->graphs[2].grid, 7));
  expectEquivalent(reference, *program);
}

TEST_F(BlockGraphSearchTest, GivesBlocksAThreadPerFewElements) {
  // A body without matmuls gets a thread for kElementsPerThread elements of
  // its largest tile, a power of two between the block size bounds.
  sem::Program program = parse(R"mlir(
    func.func @f(%x: tensor<4x1024xf16>) -> tensor<4x1024xf16> {
      %0 = mirage_kernel.graph_def(%a = %x : tensor<4x1024xf16>) -> tensor<4x1024xf16> grid [1, 1, 1] block [128, 1, 1] forloop 1 {
        %1 = input_loader %a imap <> : tensor<4x1024xf16> -> !mirage_block.stensor<4x1024xf16>
        %2 = exp %1 : !mirage_block.stensor<4x1024xf16>
        %3 = output_saver %2 omap <> : !mirage_block.stensor<4x1024xf16> -> tensor<4x1024xf16>
        yield %3 : tensor<4x1024xf16>
      }
      return %0 : tensor<4x1024xf16>
    })mlir");
  const sem::Graph &body = program.graphs[1];
  EXPECT_EQ(getTileThreads(body, kElementsPerThread), 512);
  EXPECT_EQ(getTileThreads(body, 16), 256);
  EXPECT_EQ(getTileThreads(body, 4096), kMinBlockThreads);
  EXPECT_EQ(getTileThreads(body, 1), kMaxBlockThreads);
  EXPECT_EQ(getBlockThreads(body, /*requested=*/0), 128);
}

TEST_F(BlockGraphSearchTest, AccumulatesRowSumsOnlyAsSumLast) {
  // A row sum accumulated over the for-loop has one form: `forloop_accum
  // sum_last` of the row. A whole-row `reduction` whose result the for-loop
  // sums, and one of the tile the for-loop sums, are the same value, slower
  // to run (the tile goes through shared memory every iteration or is
  // accumulated whole), and would take places among the best K.
  sem::Program reference = parse(kAttention);
  BlockSearchOptions options;
  options.singleKernels = false;
  options.maxCandidates = 64;
  BlockSearchStatistics statistics;
  std::vector<RankedProgram> found = search(reference, options, statistics);
  ASSERT_GT(found.size(), 1u);
  bool sumsLast = false;
  for (const RankedProgram &candidate : found) {
    const sem::Graph &body = candidate.program.graphs[1];
    for (const sem::Node &node : body.nodes) {
      if (node.kind != sem::OpKind::ForloopAccum)
        continue;
      sumsLast |= node.accum == sem::AccumKind::SumLast;
      if (node.accum != sem::AccumKind::Sum)
        continue;
      for (const sem::Node &other : body.nodes) {
        EXPECT_FALSE(other.results[0] == node.operands[0] &&
                     other.kind == sem::OpKind::Reduction && other.size == 1);
        // Nor the whole-row reduction of a summed tile after the loop.
        EXPECT_FALSE(other.operands.size() == 1 &&
                     other.operands[0] == node.results[0] &&
                     other.kind == sem::OpKind::Reduction && other.size == 1);
      }
    }
  }
  EXPECT_TRUE(sumsLast);
}

TEST_F(BlockGraphSearchTest, CountsAccumulatorsApartFromMaxOps) {
  // The split-KV body computes with 3 ops (matmul, exp, matmul) and
  // accumulates its numerator and denominator with 2 more: `max-ops` bounds
  // the ops that compute, and the accumulators come besides them, so that a
  // for-loop-1 range is not given extra ops to try that it cannot use.
  sem::Program reference = parse(kAttention);
  BlockSearchOptions options;
  options.singleKernels = false;
  options.maxOps = 3;
  options.forloopRanges = {2};
  BlockSearchStatistics statistics;
  std::vector<RankedProgram> found = search(reference, options, statistics);
  ASSERT_GE(found.size(), 1u);
  const sem::Graph &body = found.front().program.graphs[1];
  EXPECT_EQ(llvm::count_if(body.nodes,
                           [](const sem::Node &node) {
                             return node.kind == sem::OpKind::ForloopAccum;
                           }),
            2);
}

TEST_F(BlockGraphSearchTest, ExploresSingleKernelsFirst) {
  // A range explores its one-kernel launches before its split ones: they are
  // few and cheap to explore, and a one-kernel µGraph needs no second launch
  // nor the partial results' memory traffic. A time limit that stops a range
  // early must not leave them unexplored behind thousands of split
  // configurations. The search stops at its first complete candidate here.
  sem::Program reference = parse(kAttention);
  BlockSearchOptions options;
  options.maxComplete = 1;
  BlockSearchStatistics statistics;
  std::vector<RankedProgram> found = search(reference, options, statistics);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found.front().program.graphs.size(), 2u);
}

TEST_F(BlockGraphSearchTest, RanksCandidatesByTheirFinalForm) {
  // The superoptimizer stabilises the candidates of a program searched
  // without its maximum shifts, which changes their cost: the search ranks,
  // and verifies cheapest first, by the cost of the final form, so that the
  // best K after stabilisation are the ones verified. A candidate without a
  // final form is dropped (here: every one-kernel µGraph).
  sem::Program reference = parse(kAttention);
  BlockSearchOptions options;
  options.maxCandidates = 4;
  options.forloopRanges = {1, 2};
  options.finalForm =
      [](const sem::Program &candidate) -> std::optional<sem::Program> {
    if (candidate.graphs.size() != 3)
      return std::nullopt;
    return stabilize(candidate);
  };
  BlockSearchStatistics statistics;
  std::vector<RankedProgram> found = search(reference, options, statistics);
  ASSERT_GE(found.size(), 1u);
  options.schedule = getScheduler(128, *options.chip, &context);
  for (const RankedProgram &candidate : found) {
    ASSERT_EQ(candidate.program.graphs.size(), 3u);
    std::optional<sem::Program> stable = stabilize(candidate.program);
    ASSERT_TRUE(stable);
    std::optional<ProgramFacts> facts = options.schedule(*stable);
    ASSERT_TRUE(facts);
    CostEstimate cost = estimateCost(*stable, *options.chip, *facts);
    EXPECT_DOUBLE_EQ(candidate.cost.microseconds, cost.microseconds);
    EXPECT_EQ(candidate.cost.globalBytes, cost.globalBytes);
  }
}

namespace {

/// A function of two 4x8 f16 inputs whose `body` computes `%r`.
std::string twoInputFunction(const std::string &body) {
  return "func.func @f(%x: tensor<4x8xf16>, %y: tensor<4x8xf16>) -> "
         "tensor<4x8xf16> {\n" +
         body + "\n  return %r : tensor<4x8xf16>\n}";
}

TEST_F(BlockGraphSearchTest, KeysCandidatesUpToCommutativeOperands) {
  // The operands of add and mul commute exactly, those of sub do not.
  const char *types = " : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>";
  auto op = [&](StringRef name, StringRef a, StringRef b) {
    return getCandidateKey(parse(twoInputFunction(
        ("%r = mirage_kernel." + name + " " + a + ", " + b + types).str())));
  };
  EXPECT_EQ(op("mul", "%x", "%y"), op("mul", "%y", "%x"));
  EXPECT_EQ(op("add", "%x", "%y"), op("add", "%y", "%x"));
  EXPECT_NE(op("sub", "%x", "%y"), op("sub", "%y", "%x"));
  EXPECT_NE(op("mul", "%x", "%y"), op("add", "%x", "%y"));
}

TEST_F(BlockGraphSearchTest, KeysCandidatesUpToTheOrderOfIndependentOps) {
  auto keyOf = [&](const std::string &body) {
    return getCandidateKey(parse(twoInputFunction(body)));
  };
  StringRef t = "tensor<4x8xf16>";
  std::string exp = ("%a = mirage_kernel.exp %x : " + t + "\n").str();
  std::string neg = ("%b = mirage_kernel.neg %y : " + t + "\n").str();
  std::string sub =
      ("%r = mirage_kernel.sub %a, %b : " + t + ", " + t + " -> " + t).str();
  EXPECT_EQ(keyOf(exp + neg + sub), keyOf(neg + exp + sub));
  // The same ops on the other input are another program.
  std::string expY = ("%a = mirage_kernel.exp %y : " + t + "\n").str();
  std::string negX = ("%b = mirage_kernel.neg %x : " + t + "\n").str();
  EXPECT_NE(keyOf(exp + neg + sub), keyOf(expY + negX + sub));
  // A value slot that nothing names (one the enumerator left unused).
  sem::Program program = parse(twoInputFunction(exp + neg + sub));
  std::string key = getCandidateKey(program);
  program.graphs[0].values.push_back({{592, 3584}, sem::ElementType::BF16});
  EXPECT_EQ(getCandidateKey(program), key);
}

} // namespace

TEST(GridSizesTest, GoPastTheListedSizesUpToEightBlocksPerMultiprocessor) {
  BlockSearchOptions options;
  options.chip = lookupChip("sm_90a");
  ASSERT_NE(options.chip, nullptr);
  // 132 SMs: up to 1056 blocks on one axis.
  EXPECT_EQ(getGridSizes(4096, options),
            (SmallVector<int64_t>{2, 4, 8, 16, 32, 64, 128, 256, 512, 1024}));
  // 6144 columns: 512 blocks of 12 and 768 of 8 (a halving), not 1536.
  SmallVector<int64_t> sizes = getGridSizes(6144, options);
  EXPECT_TRUE(llvm::is_contained(sizes, 512));
  EXPECT_TRUE(llvm::is_contained(sizes, 768));
  EXPECT_FALSE(llvm::is_contained(sizes, 1536));
  // An A100 (108 SMs) stops at 864: 768 but not 1024.
  options.chip = lookupChip("sm_80");
  sizes = getGridSizes(6144, options);
  EXPECT_TRUE(llvm::is_contained(sizes, 768));
  EXPECT_FALSE(llvm::is_contained(sizes, 1024));
  // A bound set by the user stops both.
  options.largestGridSize = 256;
  EXPECT_EQ(getGridSizes(6144, options),
            (SmallVector<int64_t>{2, 4, 8, 16, 32, 64, 128, 256, 192, 96, 48,
                                  24, 12, 6, 3}));
}

TEST(SelectCandidatesTest, KeepsTheCheapestThenOneOfEachOtherTiling) {
  // Tilings of candidates, cheapest first.
  SmallVector<std::string> tilings = {"a", "a", "b", "a", "c", "c", "d"};
  // Without extras: the cheapest `count`.
  EXPECT_EQ(selectCandidates(tilings, 3, 0), (SmallVector<size_t>{0, 1, 2}));
  // Then the cheapest of each tiling the first lack: c, then d.
  EXPECT_EQ(selectCandidates(tilings, 2, 2), (SmallVector<size_t>{0, 1, 2, 4}));
  EXPECT_EQ(selectCandidates(tilings, 3, 5),
            (SmallVector<size_t>{0, 1, 2, 4, 6}));
  // Fewer candidates than asked for.
  EXPECT_EQ(selectCandidates(tilings, 16, 4),
            (SmallVector<size_t>{0, 1, 2, 3, 4, 5, 6}));
  EXPECT_TRUE(selectCandidates({}, 16, 4).empty());
}
