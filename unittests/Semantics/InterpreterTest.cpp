//===- InterpreterTest.cpp - The reference interpreter --------------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Semantics/Interpreter.h"

#include "TestPrograms.h"
#include "gtest/gtest.h"

#include <limits>

using namespace mlir;
using namespace mlir::mirage::sem;

namespace {

class InterpreterTest : public ::testing::Test {
protected:
  InterpreterTest() { test::loadDialects(context); }

  /// Evaluates `source` in f64 on `inputs`; expects success.
  std::vector<Tensor<double>> run(StringRef source,
                                  std::vector<Tensor<double>> inputs) {
    std::optional<Program> program = test::parseProgram(context, source);
    EXPECT_TRUE(program.has_value()) << source.str();
    if (!program)
      return {};
    FloatDomain domain;
    std::vector<Tensor<double>> outputs;
    std::string error;
    EXPECT_TRUE(succeeded(
        Interpreter<FloatDomain>(domain).run(*program, inputs, outputs, error)))
        << error;
    return outputs;
  }

  static Tensor<double> iota(ArrayRef<int64_t> shape) {
    Tensor<double> t(shape);
    for (int64_t i = 0; i < t.size(); ++i)
      t.data[i] = static_cast<double>(i);
    return t;
  }

  MLIRContext context;
};

TEST_F(InterpreterTest, ReductionToASizeIsStrided) {
  auto out = run(R"mlir(
    func.func @f(%x: tensor<8xf32>) -> tensor<2xf32> {
      %r = mirage_kernel.reduction %x dim 0 size 2 : tensor<8xf32> -> tensor<2xf32>
      return %r : tensor<2xf32>
    })mlir",
                 {iota({8})});
  ASSERT_EQ(out.size(), 1u);
  // out[j] = sum_k in[j + 2k]; contiguous groups would give 6 and 22.
  EXPECT_EQ(out[0].data, (std::vector<double>{12, 16}));
}

TEST_F(InterpreterTest, MatmulRmsNormAndBroadcasting) {
  Tensor<double> a({2, 3}), b({3, 2});
  a.data = {1, 2, 3, 4, 5, 6};
  b.data = {1, 0, 0, 1, 1, 1};
  auto out = run(R"mlir(
    func.func @f(%a: tensor<2x3xf32>, %b: tensor<3x2xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>) {
      %m = mirage_kernel.matmul %a, %b : tensor<2x3xf32>, tensor<3x2xf32> -> tensor<2x2xf32>
      %n = mirage_kernel.rms_norm %m size 2 : tensor<2x2xf32>
      %s = mirage_kernel.reduction %m dim 1 : tensor<2x2xf32> -> tensor<2x1xf32>
      %d = mirage_kernel.div %m, %s : tensor<2x2xf32>, tensor<2x1xf32> -> tensor<2x2xf32>
      return %m, %n, %d : tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>
    })mlir",
                 {a, b});
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0].data, (std::vector<double>{4, 5, 10, 11}));
  double rms0 = std::sqrt((16.0 + 25.0) / 2);
  EXPECT_DOUBLE_EQ(out[1].data[0], 4 / rms0);
  EXPECT_DOUBLE_EQ(out[1].data[1], 5 / rms0);
  EXPECT_DOUBLE_EQ(out[2].data[2], 10.0 / 21.0);
}

TEST_F(InterpreterTest, LoadersAccumulatorsAndSavers) {
  // Two blocks take two rows each; the loop walks the columns in two chunks.
  auto out = run(R"mlir(
    func.func @f(%x: tensor<4x4xf32>) -> (tensor<4x2xf32>, tensor<4x1xf32>, tensor<4x2xf32>) {
      %o:3 = mirage_kernel.graph_def(%X = %x : tensor<4x4xf32>)
          -> (tensor<4x2xf32>, tensor<4x1xf32>, tensor<4x2xf32>)
          grid [2, 1, 1] block [32, 1, 1] forloop 2 {
        %t = input_loader %X imap <x = 0> fmap 1 : tensor<4x4xf32> -> !mirage_block.stensor<2x2xf32>
        %s = forloop_accum %t sum : !mirage_block.stensor<2x2xf32> -> !mirage_block.stensor<2x2xf32>
        %l = forloop_accum %t sum_last : !mirage_block.stensor<2x2xf32> -> !mirage_block.stensor<2x1xf32>
        %m = forloop_accum %t max : !mirage_block.stensor<2x2xf32> -> !mirage_block.stensor<2x2xf32>
        %a = output_saver %s omap <x = 0> : !mirage_block.stensor<2x2xf32> -> tensor<4x2xf32>
        %b = output_saver %l omap <x = 0> : !mirage_block.stensor<2x1xf32> -> tensor<4x1xf32>
        %c = output_saver %m omap <x = 0> : !mirage_block.stensor<2x2xf32> -> tensor<4x2xf32>
        yield %a, %b, %c : tensor<4x2xf32>, tensor<4x1xf32>, tensor<4x2xf32>
      }
      return %o#0, %o#1, %o#2 : tensor<4x2xf32>, tensor<4x1xf32>, tensor<4x2xf32>
    })mlir",
                 {iota({4, 4})});
  ASSERT_EQ(out.size(), 3u);
  // sum: x[r, c] + x[r, c + 2].
  EXPECT_EQ(out[0].data, (std::vector<double>{2, 4, 10, 12, 18, 20, 26, 28}));
  EXPECT_EQ(out[1].data, (std::vector<double>{6, 22, 38, 54}));
  EXPECT_EQ(out[2].data, (std::vector<double>{2, 3, 6, 7, 10, 11, 14, 15}));
}

TEST_F(InterpreterTest, RmsLastCountsEveryIterationAndElement) {
  auto out = run(R"mlir(
    func.func @f(%x: tensor<1x4xf32>) -> tensor<1x1xf32> {
      %o = mirage_kernel.graph_def(%X = %x : tensor<1x4xf32>) -> tensor<1x1xf32>
          grid [1, 1, 1] block [32, 1, 1] forloop 2 {
        %t = input_loader %X imap <> fmap 1 : tensor<1x4xf32> -> !mirage_block.stensor<1x2xf32>
        %r = forloop_accum %t rms_last : !mirage_block.stensor<1x2xf32> -> !mirage_block.stensor<1x1xf32>
        %a = output_saver %r omap <> : !mirage_block.stensor<1x1xf32> -> tensor<1x1xf32>
        yield %a : tensor<1x1xf32>
      }
      return %o : tensor<1x1xf32>
    })mlir",
                 {iota({1, 4})});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_DOUBLE_EQ(out[0].data[0], std::sqrt((0.0 + 1 + 4 + 9) / 4));
}

TEST_F(InterpreterTest, ClusterReduceSumsTheBlocksOfEachCluster) {
  auto out = run(R"mlir(
    func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
      %o = mirage_kernel.graph_def(%X = %x : tensor<8xf32>) -> tensor<8xf32>
          grid [4, 1, 1] block [32, 1, 1] forloop 1 cluster [2, 1, 1] {
        %t = input_loader %X imap <x = 0> : tensor<8xf32> -> !mirage_block.stensor<2xf32>
        %s = cluster_reduce %t : !mirage_block.stensor<2xf32>
        %a = output_saver %s omap <x = 0> : !mirage_block.stensor<2xf32> -> tensor<8xf32>
        yield %a : tensor<8xf32>
      }
      return %o : tensor<8xf32>
    })mlir",
                 {iota({8})});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].data, (std::vector<double>{2, 4, 2, 4, 10, 12, 10, 12}));
}

TEST_F(InterpreterTest, ClusterReduceScatterKeepsTheChunkOfEachRank) {
  // Rows {0, 1} and {2, 3} are summed; block x keeps columns [2x, 2x+2).
  auto out = run(R"mlir(
    func.func @f(%x: tensor<4x4xf32>) -> tensor<2x4xf32> {
      %o = mirage_kernel.graph_def(%X = %x : tensor<4x4xf32>) -> tensor<2x4xf32>
          grid [2, 1, 1] block [32, 1, 1] forloop 1 cluster [2, 1, 1] {
        %t = input_loader %X imap <x = 0> : tensor<4x4xf32> -> !mirage_block.stensor<2x4xf32>
        %s = cluster_reduce_scatter %t dim 1 : !mirage_block.stensor<2x4xf32> -> !mirage_block.stensor<2x2xf32>
        %a = output_saver %s omap <x = 1> : !mirage_block.stensor<2x2xf32> -> tensor<2x4xf32>
        yield %a : tensor<2x4xf32>
      }
      return %o : tensor<2x4xf32>
    })mlir",
                 {iota({4, 4})});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].data, (std::vector<double>{8, 10, 12, 14, 16, 18, 20, 22}));
}

TEST_F(InterpreterTest, ThreadGraphBroadcastsItsOperands) {
  auto out = run(R"mlir(
    func.func @f(%x: tensor<2x2xf32>, %y: tensor<2x1xf32>) -> tensor<2x2xf32> {
      %o = mirage_kernel.graph_def(%X = %x : tensor<2x2xf32>, %Y = %y : tensor<2x1xf32>) -> tensor<2x2xf32>
          grid [1, 1, 1] block [32, 1, 1] forloop 1 {
        %a = input_loader %X imap <> : tensor<2x2xf32> -> !mirage_block.stensor<2x2xf32>
        %b = input_loader %Y imap <> : tensor<2x1xf32> -> !mirage_block.stensor<2x1xf32>
        %t = thread_graph %a, %b : !mirage_block.stensor<2x2xf32>, !mirage_block.stensor<2x1xf32> -> !mirage_block.stensor<2x2xf32> {
        ^bb0(%p: f32, %q: f32):
          %m = mul %p, %q : f32
          %n = neg %m : f32
          yield %n : f32
        }
        %s = output_saver %t omap <> : !mirage_block.stensor<2x2xf32> -> tensor<2x2xf32>
        yield %s : tensor<2x2xf32>
      }
      return %o : tensor<2x2xf32>
    })mlir",
                 {iota({2, 2}), iota({2, 1})});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].data, (std::vector<double>{-0.0, -0.0, -2, -3}));
}

TEST_F(InterpreterTest, RejectsInputsOfTheWrongShape) {
  std::optional<Program> program = test::parseProgram(context, R"mlir(
    func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
      %e = mirage_kernel.exp %x : tensor<8xf32>
      return %e : tensor<8xf32>
    })mlir");
  ASSERT_TRUE(program);
  FloatDomain domain;
  std::vector<Tensor<double>> outputs;
  std::string error;
  EXPECT_TRUE(failed(Interpreter<FloatDomain>(domain).run(*program, {iota({4})},
                                                          outputs, error)));
  EXPECT_EQ(error, "input 0 has shape 4, expected 8");
  EXPECT_TRUE(failed(
      Interpreter<FloatDomain>(domain).run(*program, {}, outputs, error)));
  EXPECT_EQ(error, "expected 1 inputs, got 0");
}

TEST_F(InterpreterTest, FieldRejectsExpOfExp) {
  std::optional<Program> program = test::parseProgram(context, R"mlir(
    func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
      %e = mirage_kernel.exp %x : tensor<4xf32>
      %f = mirage_kernel.exp %e : tensor<4xf32>
      return %f : tensor<4xf32>
    })mlir");
  ASSERT_TRUE(program);
  FieldDomain domain(1);
  uint64_t state = 1;
  Tensor<FieldValue> input({4});
  for (FieldValue &v : input.data)
    v = FieldDomain::random(state);
  std::vector<Tensor<FieldValue>> outputs;
  std::string error;
  EXPECT_TRUE(failed(
      Interpreter<FieldDomain>(domain).run(*program, {input}, outputs, error)));
  EXPECT_NE(error.find("exp: exp of a value that already depends on exp"),
            std::string::npos)
      << error;
}

TEST_F(InterpreterTest, RefusesProgramsOverTheLimitsBeforeAllocating) {
  // 2^40 elements: evaluating it would allocate 8 TiB.
  std::optional<Program> program = test::parseProgram(context, R"mlir(
    func.func @f(%x: tensor<1099511627776xf32>) -> tensor<1099511627776xf32> {
      %e = mirage_kernel.exp %x : tensor<1099511627776xf32>
      return %e : tensor<1099511627776xf32>
    })mlir");
  ASSERT_TRUE(program);
  FloatDomain domain;
  std::vector<Tensor<double>> outputs;
  std::string error;
  EXPECT_TRUE(failed(
      Interpreter<FloatDomain>(domain).run(*program, {}, outputs, error)));
  EXPECT_EQ(error, "tensor<1099511627776xf32> has 2^40 elements; evaluation "
                   "is limited to 2^28 elements per tensor");
  // Within the element limit, over the memory limit: x, e and the output
  // handed back, 8 bytes each.
  EvaluationLimits limits;
  limits.maxElements = int64_t(1) << 40;
  limits.maxBytes = 1000;
  EXPECT_TRUE(
      failed(checkEvaluationLimits(*program, sizeof(double), limits, error)));
  EXPECT_EQ(error, "its values take 26388279066624 bytes (24.0 TiB) at "
                   "once; evaluation is limited to 1000 bytes");
}

TEST_F(InterpreterTest, StopsAtTheDeadline) {
  std::optional<Program> program = test::parseProgram(context, R"mlir(
    func.func @f(%a: tensor<256x256xf32>) -> tensor<256x256xf32> {
      %m = mirage_kernel.matmul %a, %a : tensor<256x256xf32>, tensor<256x256xf32> -> tensor<256x256xf32>
      return %m : tensor<256x256xf32>
    })mlir");
  ASSERT_TRUE(program);
  FloatDomain domain;
  std::vector<Tensor<double>> outputs;
  std::string error;
  // A deadline that has passed by the first poll, inside the matmul.
  Deadline deadline(1e-9);
  EXPECT_TRUE(failed(Interpreter<FloatDomain>(domain).run(
      *program, {iota({256, 256})}, outputs, error, deadline)));
  EXPECT_EQ(error, "the evaluation did not finish within the time limit of "
                   "1e-09 s");
  // No deadline: the same evaluation finishes.
  EXPECT_TRUE(succeeded(Interpreter<FloatDomain>(domain).run(
      *program, {iota({256, 256})}, outputs, error)));
}

TEST(DeadlineTest, SecondsLeft) {
  // The search and the pass hand the time left on (Superoptimize.cpp).
  EXPECT_EQ(Deadline().secondsLeft(), std::numeric_limits<double>::infinity());
  EXPECT_EQ(Deadline(0).secondsLeft(), std::numeric_limits<double>::infinity());
  Deadline passed(1e-9);
  while (!passed.hasPassed()) {
  }
  EXPECT_LE(passed.secondsLeft(), 0.0);
  double left = Deadline(1000).secondsLeft();
  EXPECT_GT(left, 900.0);
  EXPECT_LE(left, 1000.0);
}

TEST(DeadlineTest, InfiniteSecondsNeverPass) {
  // A deadline built from another's time left: infinity when that one
  // never passes (Superoptimize.cpp gives its checks max(10 s, time left)).
  Deadline never(std::numeric_limits<double>::infinity());
  EXPECT_FALSE(never.hasPassed());
  EXPECT_EQ(never.secondsLeft(), std::numeric_limits<double>::infinity());
  Deadline huge(1e300);
  EXPECT_FALSE(huge.hasPassed());
}

} // namespace
