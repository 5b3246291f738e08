//===- ParallelDimensionsTest.cpp - Checking at reduced sizes -------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Semantics/ParallelDimensions.h"
#include "Mirage/Semantics/Equivalence.h"

#include "TestPrograms.h"

#include "gtest/gtest.h"

#include <string>

using namespace mlir;
using namespace mlir::mirage::sem;

namespace {

/// Attention (heads 4, 32 query rows, 64 keys, dim 16), as the benchmarks
/// write it.
constexpr const char *kAttention = R"mlir(
func.func @ref(%Q: tensor<4x32x16xf16>, %K: tensor<4x16x64xf16>, %V: tensor<4x64x16xf16>) -> tensor<4x32x16xf16> {
  %S = mirage_kernel.matmul %Q, %K : tensor<4x32x16xf16>, tensor<4x16x64xf16> -> tensor<4x32x64xf16>
  %E = mirage_kernel.exp %S : tensor<4x32x64xf16>
  %R = mirage_kernel.reduction %E dim 2 : tensor<4x32x64xf16> -> tensor<4x32x1xf16>
  %P = mirage_kernel.div %E, %R : tensor<4x32x64xf16>, tensor<4x32x1xf16> -> tensor<4x32x64xf16>
  %O = mirage_kernel.matmul %P, %V : tensor<4x32x64xf16>, tensor<4x64x16xf16> -> tensor<4x32x16xf16>
  return %O : tensor<4x32x16xf16>
}
)mlir";

/// Split-KV attention: kernel 1 (grid [4, 2, 2]) takes one head (x), 16
/// query rows (z) and 32 keys (y) per block; kernel 2 (grid [4, 4, 1])
/// adds the two partials of 8 rows per block. `@KMAP@` is K's imap,
/// `@CLUSTER@` the first kernel's cluster clause.
constexpr const char *kSplitKV = R"mlir(
func.func @splitkv(%Q: tensor<4x32x16xf16>, %K: tensor<4x16x64xf16>, %V: tensor<4x64x16xf16>) -> tensor<4x32x16xf16> {
  %parts, %dens = mirage_kernel.graph_def(%Qg = %Q : tensor<4x32x16xf16>, %Kg = %K : tensor<4x16x64xf16>, %Vg = %V : tensor<4x64x16xf16>)
      -> (tensor<4x32x32xf16>, tensor<4x32x2xf16>) grid [4, 2, 2] block [128, 1, 1] forloop 2 @CLUSTER@ {
    %qt = input_loader %Qg imap <x = 0, z = 1> : tensor<4x32x16xf16> -> !mirage_block.stensor<1x16x16xf16>
    %kt = input_loader %Kg imap <@KMAP@> fmap 2 : tensor<4x16x64xf16> -> !mirage_block.stensor<1x16x16xf16>
    %vt = input_loader %Vg imap <x = 0, y = 1> fmap 1 : tensor<4x64x16xf16> -> !mirage_block.stensor<1x16x16xf16>
    %s = matmul %qt, %kt : !mirage_block.stensor<1x16x16xf16>, !mirage_block.stensor<1x16x16xf16> -> !mirage_block.stensor<1x16x16xf16>
    %e = exp %s : !mirage_block.stensor<1x16x16xf16>
    %ev = matmul %e, %vt : !mirage_block.stensor<1x16x16xf16>, !mirage_block.stensor<1x16x16xf16> -> !mirage_block.stensor<1x16x16xf16>
    %acc = forloop_accum %ev sum : !mirage_block.stensor<1x16x16xf16> -> !mirage_block.stensor<1x16x16xf16>
    %den = forloop_accum %e sum_last : !mirage_block.stensor<1x16x16xf16> -> !mirage_block.stensor<1x16x1xf16>
    %oa = output_saver %acc omap <x = 0, y = 2, z = 1> : !mirage_block.stensor<1x16x16xf16> -> tensor<4x32x32xf16>
    %od = output_saver %den omap <x = 0, y = 2, z = 1> : !mirage_block.stensor<1x16x1xf16> -> tensor<4x32x2xf16>
    yield %oa, %od : tensor<4x32x32xf16>, tensor<4x32x2xf16>
  }
  %O = mirage_kernel.graph_def(%Pg = %parts : tensor<4x32x32xf16>, %Dg = %dens : tensor<4x32x2xf16>)
      -> tensor<4x32x16xf16> grid [4, 4, 1] block [128, 1, 1] forloop 1 {
    %pt = input_loader %Pg imap <x = 0, y = 1> : tensor<4x32x32xf16> -> !mirage_block.stensor<1x8x32xf16>
    %dt = input_loader %Dg imap <x = 0, y = 1> : tensor<4x32x2xf16> -> !mirage_block.stensor<1x8x2xf16>
    %num = reduction %pt dim 2 size 16 : !mirage_block.stensor<1x8x32xf16> -> !mirage_block.stensor<1x8x16xf16>
    %sum = reduction %dt dim 2 : !mirage_block.stensor<1x8x2xf16> -> !mirage_block.stensor<1x8x1xf16>
    %y = div %num, %sum : !mirage_block.stensor<1x8x16xf16>, !mirage_block.stensor<1x8x1xf16> -> !mirage_block.stensor<1x8x16xf16>
    %ot = output_saver %y omap <x = 0, y = 1> : !mirage_block.stensor<1x8x16xf16> -> tensor<4x32x16xf16>
    yield %ot : tensor<4x32x16xf16>
  }
  return %O : tensor<4x32x16xf16>
}
)mlir";

std::string splitKV(StringRef kmap, StringRef cluster = "") {
  std::string text = kSplitKV;
  auto replace = [&](StringRef what, StringRef with) {
    size_t at = text.find(what.str());
    text.replace(at, what.size(), with.str());
  };
  replace("@KMAP@", kmap);
  replace("@CLUSTER@", cluster);
  return text;
}

class ParallelDimensionsTest : public ::testing::Test {
protected:
  ParallelDimensionsTest() { test::loadDialects(context); }

  Program parse(StringRef source) {
    std::optional<Program> program = test::parseProgram(context, source);
    EXPECT_TRUE(program.has_value()) << source.str();
    return program.value_or(Program());
  }

  MLIRContext context;
};

TEST_F(ParallelDimensionsTest, SplitKVAttentionIsCheckedOnOneHeadAndOneTile) {
  Program reference = parse(kAttention);
  Program candidate = parse(splitKV("x = 0, y = 2"));
  ReducedPair pair = reduceParallelDimensions(reference, candidate);
  // Heads go down to 1 (one head per block), and so do query rows: the
  // blocks split them too, and their ops compute every row apart. The
  // columns of V stay: kernel 1 saves its partial sums beside each other
  // along them, and kernel 2 adds them with a strided reduction.
  ASSERT_EQ(pair.reductions.size(), 2u);
  EXPECT_EQ(pair.reductions[0].outputDim, 0);
  EXPECT_EQ(pair.reductions[0].from, 4);
  EXPECT_EQ(pair.reductions[0].to, 1);
  EXPECT_EQ(pair.reductions[1].outputDim, 1);
  EXPECT_EQ(pair.reductions[1].from, 32);
  EXPECT_EQ(pair.reductions[1].to, 1);
  EXPECT_EQ(pair.reference.getInputTypes()[0].shape,
            (SmallVector<int64_t, 4>{1, 1, 16}));
  EXPECT_EQ(pair.candidate.getInputTypes()[1].shape,
            (SmallVector<int64_t, 4>{1, 16, 64}));
  // Kernel 1 keeps its two blocks over the keys; one block of one row each.
  EXPECT_EQ(pair.candidate.graphs[1].grid, (std::array<int64_t, 3>{1, 2, 1}));
  EXPECT_EQ(pair.candidate.graphs[2].grid, (std::array<int64_t, 3>{1, 1, 1}));
  EXPECT_EQ(pair.candidate.graphs[2].values[0].shape,
            (SmallVector<int64_t, 4>{1, 1, 32}));

  std::string error;
  FailureOr<EquivalenceChecker> checker =
      EquivalenceChecker::create(reference, EquivalenceOptions(), error);
  ASSERT_TRUE(succeeded(checker)) << error;
  FailureOr<EquivalenceVerdict> verdict = checker->check(candidate, error);
  ASSERT_TRUE(succeeded(verdict)) << error;
  EXPECT_TRUE(verdict->equivalent);
  EXPECT_EQ(verdict->reductions.size(), 2u);
}

TEST_F(ParallelDimensionsTest, ReducedAndFullChecksAgreeOnAWrongCandidate) {
  Program reference = parse(kAttention);
  // The partial numerators multiplied by the denominators, not divided.
  std::string wrong = splitKV("x = 0, y = 2");
  wrong.replace(wrong.find("%y = div"), 8, "%y = mul");
  Program candidate = parse(wrong);
  EXPECT_EQ(reduceParallelDimensions(reference, candidate).reductions.size(),
            2u);
  for (bool reduce : {false, true}) {
    EquivalenceOptions options;
    options.reduceParallelDimensions = reduce;
    std::string error;
    FailureOr<EquivalenceChecker> checker =
        EquivalenceChecker::create(reference, options, error);
    ASSERT_TRUE(succeeded(checker)) << error;
    FailureOr<EquivalenceVerdict> verdict = checker->check(candidate, error);
    ASSERT_TRUE(succeeded(verdict)) << error;
    EXPECT_FALSE(verdict->equivalent) << "reduce " << reduce;
  }
}

TEST_F(ParallelDimensionsTest, AClusterAcrossTheDimensionKeepsItWhole) {
  Program reference = parse(kAttention);
  ReducedPair pair = reduceParallelDimensions(
      reference, parse(splitKV("x = 0, y = 2", "cluster [2, 1, 1]")));
  ASSERT_EQ(pair.reductions.size(), 1u);
  EXPECT_EQ(pair.reductions[0].outputDim, 1);
}

TEST_F(ParallelDimensionsTest, ReducedDimensionsAreNeverCut) {
  // The rows of a softmax are parallel, its columns are reduced.
  Program softmax = parse(R"mlir(
func.func @softmax(%S: tensor<8x32xf16>) -> tensor<8x32xf16> {
  %E = mirage_kernel.exp %S : tensor<8x32xf16>
  %R = mirage_kernel.reduction %E dim 1 : tensor<8x32xf16> -> tensor<8x1xf16>
  %P = mirage_kernel.div %E, %R : tensor<8x32xf16>, tensor<8x1xf16> -> tensor<8x32xf16>
  return %P : tensor<8x32xf16>
}
)mlir");
  ReducedPair pair = reduceParallelDimensions(softmax, softmax);
  ASSERT_EQ(pair.reductions.size(), 1u);
  EXPECT_EQ(pair.reductions[0].outputDim, 0);
  EXPECT_EQ(pair.reference.getInputTypes()[0].shape,
            (SmallVector<int64_t, 4>{1, 32}));

  // A projection's rows and columns are both parallel; its depth is not.
  Program projection = parse(R"mlir(
func.func @projection(%X: tensor<4x64xf16>, %W: tensor<64x128xf16>) -> tensor<4x128xf16> {
  %N = mirage_kernel.rms_norm %X size 64 : tensor<4x64xf16>
  %O = mirage_kernel.matmul %N, %W : tensor<4x64xf16>, tensor<64x128xf16> -> tensor<4x128xf16>
  return %O : tensor<4x128xf16>
}
)mlir");
  pair = reduceParallelDimensions(projection, projection);
  ASSERT_EQ(pair.reductions.size(), 2u);
  EXPECT_EQ(pair.reference.getInputTypes()[0].shape,
            (SmallVector<int64_t, 4>{1, 64}));
  EXPECT_EQ(pair.reference.getInputTypes()[1].shape,
            (SmallVector<int64_t, 4>{64, 1}));
}

} // namespace
