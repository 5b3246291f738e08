//===- AbstractExprTest.cpp - Abstract expressions and the Z3 oracle ------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Search/AbstractExpr.h"
#include "Mirage/Search/Z3Oracle.h"

#include "Mirage/InitAllDialects.h"
#include "Mirage/Semantics/Import.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::mirage;
using namespace mlir::mirage::search;

namespace {

/// Parses `source` and returns the compact program of its function `name`.
sem::Program parse(MLIRContext &context, StringRef source, StringRef name) {
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(source, &context);
  EXPECT_TRUE(module);
  auto function = module->lookupSymbol<func::FuncOp>(name);
  FailureOr<sem::Program> program = sem::buildProgram(function);
  EXPECT_TRUE(succeeded(program));
  return *program;
}

class AbstractExprTest : public ::testing::Test {
protected:
  AbstractExprTest() {
    DialectRegistry registry;
    registry.insert<func::FuncDialect>();
    registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }
  MLIRContext context;
  ExprPool pool;
};

constexpr const char *kRmsNormLinear = R"mlir(
func.func @reference(%x: tensor<2x256xf16>, %w: tensor<256x64xf16>) -> tensor<2x64xf16> {
  %n = mirage_kernel.rms_norm %x size 256 : tensor<2x256xf16>
  %o = mirage_kernel.matmul %n, %w : tensor<2x256xf16>, tensor<256x64xf16> -> tensor<2x64xf16>
  return %o : tensor<2x64xf16>
}
func.func @fused(%x: tensor<2x256xf16>, %w: tensor<256x64xf16>) -> tensor<2x64xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<2x256xf16>, %W = %w : tensor<256x64xf16>)
      -> tensor<2x64xf16> grid [4, 1, 1] block [128, 1, 1] forloop 8 {
    %xt = input_loader %X imap <> fmap 1 : tensor<2x256xf16> -> !mirage_block.stensor<2x32xf16>
    %wt = input_loader %W imap <x = 1> fmap 0 : tensor<256x64xf16> -> !mirage_block.stensor<32x16xf16>
    %mm = matmul %xt, %wt : !mirage_block.stensor<2x32xf16>, !mirage_block.stensor<32x16xf16> -> !mirage_block.stensor<2x16xf16>
    %acc = forloop_accum %mm sum : !mirage_block.stensor<2x16xf16> -> !mirage_block.stensor<2x16xf16>
    %rms = forloop_accum %xt rms_last : !mirage_block.stensor<2x32xf16> -> !mirage_block.stensor<2x1xf16>
    %y = div %acc, %rms : !mirage_block.stensor<2x16xf16>, !mirage_block.stensor<2x1xf16> -> !mirage_block.stensor<2x16xf16>
    %out = output_saver %y omap <x = 1> : !mirage_block.stensor<2x16xf16> -> tensor<2x64xf16>
    yield %out : tensor<2x64xf16>
  }
  return %o : tensor<2x64xf16>
}
)mlir";

TEST_F(AbstractExprTest, HashConsingAndNormalisation) {
  ExprId x = pool.input(0), y = pool.input(1);
  EXPECT_EQ(pool.add(x, y), pool.add(y, x));
  EXPECT_EQ(pool.mul(x, y), pool.mul(y, x));
  EXPECT_NE(pool.div(x, y), pool.div(y, x));
  EXPECT_EQ(pool.sum(4, pool.sum(8, x)), pool.sum(32, x));
  EXPECT_EQ(pool.sum(1, x), x);
  EXPECT_EQ(pool.toString(pool.sum(32, pool.mul(x, y))),
            "sum(32, mul(in0, in1))");
}

TEST_F(AbstractExprTest, WidensTheTermsOfALinearSplit) {
  // LoRA's X W + (X A) B over a chunk of 1024 of the 4096 rows of W and A.
  ExprId x = pool.input(0), w = pool.input(1), a = pool.input(2),
         b = pool.input(3);
  auto lora = [&](int64_t chunk) {
    return pool.add(pool.sum(chunk, pool.mul(x, w)),
                    pool.sum(16, pool.mul(pool.sum(chunk, pool.mul(x, a)), b)));
  };
  EXPECT_EQ(widenSplitSums(pool, lora(1024), 1024, 4), lora(4096));
  // A term scaled or divided by what the split leaves alone stays linear.
  EXPECT_EQ(widenSplitSums(pool, pool.div(pool.mul(lora(1024), b), a), 1024, 4),
            pool.div(pool.mul(lora(4096), b), a));
  // Not linear: a term without the chunk's sum (each block would add it),
  // a product of two of them, one under a function or in a divisor, and
  // no sum of the chunk at all.
  ExprId partial = pool.sum(1024, pool.mul(x, w));
  EXPECT_FALSE(widenSplitSums(pool, pool.add(partial, b), 1024, 4));
  EXPECT_FALSE(widenSplitSums(pool, pool.mul(partial, partial), 1024, 4));
  EXPECT_FALSE(
      widenSplitSums(pool, pool.apply(ExprKind::Exp, partial), 1024, 4));
  EXPECT_FALSE(widenSplitSums(pool, pool.div(b, partial), 1024, 4));
  EXPECT_FALSE(widenSplitSums(pool, pool.sum(512, pool.mul(x, w)), 1024, 4));
}

TEST_F(AbstractExprTest, MatmulAndTilingKeepTheExpression) {
  sem::Program reference = parse(context, kRmsNormLinear, "reference");
  sem::Program fused = parse(context, kRmsNormLinear, "fused");
  ExprId ref = computeOutputExpressions(reference, pool)[0];
  ExprId candidate = computeOutputExpressions(fused, pool)[0];
  // The fused graph divides after the matmul: a different term, equal only
  // under the axioms.
  EXPECT_NE(ref, candidate);
  EXPECT_EQ(pool.toString(candidate),
            "div(sum(256, mul(in0, in1)), sqrt(mul(sum(256, mul(in0, in0)), "
            "3.906250e-03)))");
}

TEST_F(AbstractExprTest, OracleProvesTheFusedGraphsPieces) {
  sem::Program reference = parse(context, kRmsNormLinear, "reference");
  sem::Program fused = parse(context, kRmsNormLinear, "fused");
  ExprId ref = computeOutputExpressions(reference, pool)[0];
  std::vector<std::vector<ExprId>> exprs = computeExpressions(fused, pool);
  Z3Oracle oracle(pool);
  // Every value of the fused body is a piece of the reference's output: the
  // per-iteration matmul (a partial sum), the accumulators, the division.
  const sem::Graph &body = fused.graphs[1];
  for (const sem::Node &node : body.nodes)
    for (int32_t value : node.results)
      EXPECT_EQ(oracle.isSubexpression(exprs[1][value], ref), Verdict::Yes)
          << pool.toString(exprs[1][value]) << " in " << pool.toString(ref);
  // Things the reference never computes are not.
  ExprId x = pool.input(0), w = pool.input(1);
  EXPECT_EQ(oracle.isSubexpression(pool.apply(ExprKind::Exp, x), ref),
            Verdict::No);
  EXPECT_EQ(oracle.isSubexpression(pool.sum(256, pool.mul(w, w)), ref),
            Verdict::No);
  EXPECT_EQ(oracle.isSubexpression(pool.sum(512, pool.mul(x, w)), ref),
            Verdict::No);
  // Queries are cached.
  int64_t queries = oracle.getStatistics().queries;
  EXPECT_EQ(oracle.isSubexpression(pool.apply(ExprKind::Exp, x), ref),
            oracle.isSubexpression(pool.apply(ExprKind::Exp, x), ref));
  EXPECT_EQ(oracle.getStatistics().queries, queries + 2);
  EXPECT_GE(oracle.getStatistics().cacheHits, 2);
}

} // namespace
