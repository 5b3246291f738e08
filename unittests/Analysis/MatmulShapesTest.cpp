//===- MatmulShapesTest.cpp - Which matmul chains stay in registers ------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Analysis/MatmulShapes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/MLIRContext.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::mirage;

namespace {

class ChainedMatmulTest : public ::testing::Test {
protected:
  /// Whether `E x C` with E of `shape` chains in blocks of `threads`, every
  /// operand of `type` (f16 by default), A x B contracting `depth` and the
  /// product `columns` wide.
  bool chains(ArrayRef<int64_t> shape, int64_t threads, int64_t depth = 64,
              int64_t columns = 64, Type type = {}) {
    Type f16 = type ? type : builder.getF16Type();
    return canChainMatmuls(f16, f16, f16, f16, shape, depth, columns, threads);
  }

  MLIRContext context;
  Builder builder{&context};
};

TEST_F(ChainedMatmulTest, ChainsWholeStripsOverTheWarps) {
  // 4 strips of 16 rows for 4 warps; 8 strips for 4 warps (2 each).
  EXPECT_TRUE(chains({1, 64, 32}, 128));
  EXPECT_TRUE(chains({1, 128, 64}, 128));
  // One strip for 4 warps: 4 slices of the 64 keys' 4 steps.
  EXPECT_TRUE(chains({1, 16, 64}, 128));
  // Fewer than 16 rows: one partial strip per batch index (a decode
  // token's GQA group), here 1 for 4 warps and 4 for 4 warps.
  EXPECT_TRUE(chains({1, 8, 64}, 128));
  EXPECT_TRUE(chains({4, 4, 32}, 128));
}

TEST_F(ChainedMatmulTest, RefusesWhatItCannotSplit) {
  // 24 rows: a whole strip and a partial one; a partial strip of 8 rows
  // for 4 warps with only 2 steps of 16 keys to split.
  EXPECT_FALSE(chains({1, 24, 64}, 128));
  EXPECT_FALSE(chains({1, 8, 32}, 128));
  // One strip for 4 warps, but only 2 steps of 16 keys to split.
  EXPECT_FALSE(chains({1, 16, 32}, 128));
  // 3 strips for 4 warps divide neither way.
  EXPECT_FALSE(chains({1, 48, 32}, 128));
  // Keys that are no whole 16-column step, a depth that is no whole step,
  // product columns that are no whole 8-column tile.
  EXPECT_FALSE(chains({1, 64, 24}, 128));
  EXPECT_FALSE(chains({1, 64, 32}, 128, /*depth=*/40));
  EXPECT_FALSE(chains({1, 64, 32}, 128, 64, /*columns=*/12));
  // Blocks of partial warps, f32 operands.
  EXPECT_FALSE(chains({1, 64, 32}, 100));
  EXPECT_FALSE(chains({1, 64, 32}, 128, 64, 64, builder.getF32Type()));
}

TEST_F(ChainedMatmulTest, ChainsBf16LikeF16) {
  Type bf16 = builder.getBF16Type(), f16 = builder.getF16Type();
  EXPECT_TRUE(chains({1, 64, 32}, 128, 64, 64, bf16));
  EXPECT_TRUE(chains({1, 16, 64}, 128, 64, 64, bf16));
  EXPECT_FALSE(chains({1, 8, 32}, 128, 64, 64, bf16));
  // Each matmul multiplies one tensor-core type: f16 by bf16 does not chain.
  EXPECT_FALSE(
      canChainMatmuls(f16, bf16, bf16, bf16, {1, 64, 32}, 64, 64, 128));
  EXPECT_FALSE(
      canChainMatmuls(bf16, bf16, bf16, f16, {1, 64, 32}, 64, 64, 128));
}

TEST_F(ChainedMatmulTest, CountsTheRegistersOfEveryStrip) {
  // 8 tiles of 4 sums for a 64-column product, 2 row sums per strip.
  EXPECT_EQ(ChainShape({1, 64, 32}, 64, 128, true).getNumRegisters(), 34);
  EXPECT_EQ(ChainShape({1, 64, 32}, 64, 128, false).getNumRegisters(), 32);
  // Two strips per warp.
  EXPECT_EQ(ChainShape({2, 64, 32}, 64, 128, true).getNumRegisters(), 68);
  // Split keys: one strip per warp still.
  EXPECT_EQ(ChainShape({1, 16, 64}, 64, 128, true).getNumRegisters(), 34);
}

TEST_F(ChainedMatmulTest, CountsTheRunningMaximaAndTheScores) {
  // Llama's decode attention at 16 tokens: a strip of 16 of the 64 query
  // rows per warp, a 128-column product, 64 keys an iteration: 64 sums, 2
  // row sums and 2 maxima carried, the 64 keys' 8 score tiles held at once.
  ChainShape decode({1, 64, 64}, 128, 128, true, /*runningMax=*/true);
  EXPECT_EQ(decode.getNumRegisters(), 68);
  EXPECT_EQ(decode.getScoreRegisters(), 32);
  // Split keys: each of the 4 warps holds the scores of its 16 keys.
  ChainShape split({1, 16, 64}, 128, 128, true, /*runningMax=*/true);
  EXPECT_EQ(split.slices, 4);
  EXPECT_EQ(split.getScoreRegisters(), 8);
}

TEST(TensorCoreTypesTest, F16AndBf16RunOnTensorCores) {
  MLIRContext context;
  Builder builder(&context);
  Type f16 = builder.getF16Type(), bf16 = builder.getBF16Type(),
       f32 = builder.getF32Type();
  EXPECT_TRUE(isTensorCoreElementType(f16));
  EXPECT_TRUE(isTensorCoreElementType(bf16));
  EXPECT_FALSE(isTensorCoreElementType(f32));
  // A 64x32 result contracting 64 elements in one warpgroup.
  for (Type type : {f16, bf16}) {
    EXPECT_TRUE(canUseTensorCores(type, type, 64, {64, 32}, 128));
    EXPECT_TRUE(canUseWarpgroupMatmul(type, type, 64, {64, 32}, 128));
  }
  // f32 operands and mixed f16 by bf16 operands stay on the SIMT cores.
  for (auto [lhs, rhs] :
       {std::pair{f32, f32}, std::pair{f16, bf16}, std::pair{bf16, f16}}) {
    EXPECT_FALSE(canUseTensorCores(lhs, rhs, 64, {64, 32}, 128));
    EXPECT_FALSE(canUseWarpgroupMatmul(lhs, rhs, 64, {64, 32}, 128));
  }
}

} // namespace
