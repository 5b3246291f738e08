//===- KernelScheduleTest.cpp - The decisions behind one kernel -----------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Analysis/KernelSchedule.h"
#include "Mirage/Analysis/SumShapes.h"

#include "Mirage/InitAllDialects.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::mirage;

namespace {

class KernelScheduleTest : public ::testing::Test {
protected:
  KernelScheduleTest() {
    DialectRegistry registry;
    registry.insert<func::FuncDialect>();
    registerAllDialects(registry);
    context.appendDialectRegistry(registry);
  }

  /// The first graph_def of `source`.
  kernel::GraphDefOp parse(StringRef source) {
    module = parseSourceString<ModuleOp>(source, &context);
    kernel::GraphDefOp graph;
    module->walk([&](kernel::GraphDefOp op) { graph = op; });
    return graph;
  }

  const Chip &sm80() { return *lookupChip("sm_80"); }

  /// The code generator's default options on sm_80: up to 4 stages, tensor
  /// cores, no shared-memory limit of its own.
  ScheduleOptions defaults{4, true, false, true, 0};

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

/// A loop summing 128x64 f16 tiles of a 64-block grid: 16 KiB per stage
/// and a 32 KiB f32 accumulator.
constexpr StringLiteral kStagedSum = R"mlir(
func.func @few(%y: tensor<8192x512xf16>) -> tensor<8192x64xf16> {
  %o = mirage_kernel.graph_def(%Y = %y : tensor<8192x512xf16>) -> (tensor<8192x64xf16>)
      grid [64, 1, 1] block [128, 1, 1] forloop 8 {
    %yt = input_loader %Y imap <x = 0> fmap 1 : tensor<8192x512xf16> -> !mirage_block.stensor<128x64xf16>
    %acc = forloop_accum %yt sum : !mirage_block.stensor<128x64xf16> -> !mirage_block.stensor<128x64xf16>
    %s = output_saver %acc omap <x = 0> : !mirage_block.stensor<128x64xf16> -> tensor<8192x64xf16>
    yield %s : tensor<8192x64xf16>
  }
  return %o : tensor<8192x64xf16>
}
)mlir";

TEST_F(KernelScheduleTest, StagesAsManyIterationsAsAllowed) {
  kernel::GraphDefOp graph = parse(kStagedSum);
  FailureOr<KernelSchedule> schedule = scheduleKernel(graph, sm80(), defaults);
  ASSERT_TRUE(succeeded(schedule));
  // Fewer blocks than SMs: 4 stages, nothing gained by fewer.
  EXPECT_EQ(schedule->stages, 4);
  EXPECT_FALSE(schedule->tensorCopies);
  EXPECT_EQ(schedule->staged.size(), 1u);
  EXPECT_EQ(schedule->sharedBytes, 4 * 16384 + 32768);
  ASSERT_EQ(schedule->buffers.size(), 2u);
  EXPECT_EQ(schedule->buffers[1].offset, 4 * 16384);
}

TEST_F(KernelScheduleTest, DescendsTheLadderUntilTheKernelFits) {
  kernel::GraphDefOp graph = parse(kStagedSum);
  ScheduleOptions options = defaults;
  // 2 stages and the accumulator take 64 KiB: no staging fits 40,000 bytes.
  options.maxSharedBytes = 40000;
  FailureOr<KernelSchedule> schedule = scheduleKernel(graph, sm80(), options);
  ASSERT_TRUE(succeeded(schedule));
  EXPECT_EQ(schedule->stages, 0);
  EXPECT_EQ(schedule->choices.maxStages, 0);
  EXPECT_EQ(schedule->sharedBytes, 32768);
  options.maxSharedBytes = 1000;
  context.getDiagEngine().registerHandler([](Diagnostic &) {});
  EXPECT_TRUE(failed(scheduleKernel(graph, sm80(), options)));
}

TEST_F(KernelScheduleTest, ReusesTheTilesOfDeadValues) {
  // Four exps in a row: the third takes the first's tile, dead once the
  // second has read it; the fourth, saved, stores straight to global memory
  // (a direct save: no tile).
  kernel::GraphDefOp graph = parse(R"mlir(
func.func @chain(%x: tensor<64x64xf16>) -> tensor<64x64xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<64x64xf16>) -> (tensor<64x64xf16>)
      grid [1, 1, 1] block [128, 1, 1] forloop 1 {
    %xt = input_loader %X imap <> : tensor<64x64xf16> -> !mirage_block.stensor<64x64xf16>
    %a = exp %xt : !mirage_block.stensor<64x64xf16>
    %b = exp %a : !mirage_block.stensor<64x64xf16>
    %c = exp %b : !mirage_block.stensor<64x64xf16>
    %d = exp %c : !mirage_block.stensor<64x64xf16>
    %s = output_saver %d omap <> : !mirage_block.stensor<64x64xf16> -> tensor<64x64xf16>
    yield %s : tensor<64x64xf16>
  }
  return %o : tensor<64x64xf16>
}
)mlir");
  ScheduleChoices choices{0, 0, true, true, false, false, false};
  FailureOr<KernelSchedule> schedule = planKernel(graph, sm80(), choices);
  ASSERT_TRUE(succeeded(schedule));
  ASSERT_EQ(schedule->buffers.size(), 3u);
  EXPECT_EQ(schedule->buffers[0].offset, 0);
  EXPECT_EQ(schedule->buffers[1].offset, 8192);
  EXPECT_EQ(schedule->buffers[2].offset, 0);
  EXPECT_EQ(schedule->sharedBytes, 16384);
  EXPECT_EQ(schedule->directSaves.size(), 1u);
}

TEST_F(KernelScheduleTest, KeepsMatmulSumsInRegisters) {
  kernel::GraphDefOp graph = parse(R"mlir(
func.func @mm(%a: tensor<64x256xf16>, %b: tensor<256x64xf16>) -> tensor<64x64xf16> {
  %o = mirage_kernel.graph_def(%A = %a : tensor<64x256xf16>, %B = %b : tensor<256x64xf16>) -> (tensor<64x64xf16>)
      grid [1, 1, 1] block [128, 1, 1] forloop 4 {
    %at = input_loader %A imap <> fmap 1 : tensor<64x256xf16> -> !mirage_block.stensor<64x64xf16>
    %bt = input_loader %B imap <> fmap 0 : tensor<256x64xf16> -> !mirage_block.stensor<64x64xf16>
    %m = matmul %at, %bt : !mirage_block.stensor<64x64xf16>, !mirage_block.stensor<64x64xf16> -> !mirage_block.stensor<64x64xf16>
    %acc = forloop_accum %m sum : !mirage_block.stensor<64x64xf16> -> !mirage_block.stensor<64x64xf16>
    %s = output_saver %acc omap <> : !mirage_block.stensor<64x64xf16> -> tensor<64x64xf16>
    yield %s : tensor<64x64xf16>
  }
  return %o : tensor<64x64xf16>
}
)mlir");
  ScheduleChoices choices{4, kMaxStagingBytes, true, true, false, false, true};
  FailureOr<KernelSchedule> schedule = planKernel(graph, sm80(), choices);
  ASSERT_TRUE(succeeded(schedule));
  ASSERT_EQ(schedule->registerSums.size(), 1u);
  const RegisterSum &sum = schedule->registerSums.front().second;
  EXPECT_EQ(sum.engine, MatmulEngine::MmaSync);
  // 32 tiles of 16x8 over 4 warps: 8 items of 4 sums each.
  EXPECT_EQ(sum.numRegisters, 32);
  EXPECT_EQ(schedule->loopRegisters, 32);
  EXPECT_TRUE(schedule->engines.empty());
  // Without tensor cores: a SIMT matmul and a shared accumulator.
  choices.tensorCores = false;
  schedule = planKernel(graph, sm80(), choices);
  ASSERT_TRUE(succeeded(schedule));
  EXPECT_TRUE(schedule->registerSums.empty());
  Operation *matmul = nullptr;
  graph.walk([&](block::MatmulOp op) { matmul = op; });
  EXPECT_EQ(schedule->engines.lookup(matmul), MatmulEngine::Simt);
}

TEST_F(KernelScheduleTest, KeepsRowSumsAsLanePartials) {
  kernel::GraphDefOp graph = parse(R"mlir(
func.func @rms(%x: tensor<16x3584xf16>) -> tensor<16x1xf16> {
  %o = mirage_kernel.graph_def(%X = %x : tensor<16x3584xf16>) -> (tensor<16x1xf16>)
      grid [1, 1, 1] block [128, 1, 1] forloop 8 {
    %xt = input_loader %X imap <> fmap 1 : tensor<16x3584xf16> -> !mirage_block.stensor<16x448xf16>
    %r = forloop_accum %xt rms_last : !mirage_block.stensor<16x448xf16> -> !mirage_block.stensor<16x1xf16>
    %s = output_saver %r omap <> : !mirage_block.stensor<16x1xf16> -> tensor<16x1xf16>
    yield %s : tensor<16x1xf16>
  }
  return %o : tensor<16x1xf16>
}
)mlir");
  FailureOr<KernelSchedule> schedule = scheduleKernel(graph, sm80(), defaults);
  ASSERT_TRUE(succeeded(schedule));
  ASSERT_EQ(schedule->lanePartials.size(), 1u);
  // 56 runs of 8 halves a row; 16 rows leave 8 threads a row, which divide
  // 56.
  const LanePartials &partials = schedule->lanePartials.front().second;
  EXPECT_EQ(partials.termRun, 8);
  EXPECT_EQ(partials.lanes, 8);
}

TEST(LanePartialCountTest, TakesTheMostLanesThatDivideTheRuns) {
  // One row of 56 runs: a lane per run.
  EXPECT_EQ(getLanePartialCount(1, 56, 128), 56);
  // Four rows leave 32 threads a row: 28 divides 56.
  EXPECT_EQ(getLanePartialCount(4, 56, 128), 28);
  // A prime number of runs beyond the threads: one lane reads them all.
  EXPECT_EQ(getLanePartialCount(1, 131, 128), 1);
  // More results than threads: no lane partials.
  EXPECT_EQ(getLanePartialCount(256, 4, 128), 0);
}

} // namespace
