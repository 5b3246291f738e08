//===- CostModelTest.cpp - The cost model reads the kernel schedule -------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Search/CostModel.h"
#include "Mirage/Search/ProgramSchedule.h"

#include "Mirage/Conversion/CodegenOptions.h"
#include "Mirage/InitAllDialects.h"
#include "Mirage/Semantics/Import.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

using namespace mlir;
using namespace mlir::mirage;
using namespace mlir::mirage::search;

namespace {

/// A 2x64 by 64x32 f16 matmul in one block of 128 threads, looping four
/// times over the contraction.
constexpr const char *kLinear = R"mlir(
  func.func @linear(%x: tensor<2x64xf16>, %w: tensor<64x32xf16>) -> tensor<2x32xf16> {
    %o = mirage_kernel.graph_def(%xg = %x : tensor<2x64xf16>, %wg = %w : tensor<64x32xf16>) -> tensor<2x32xf16> grid [1, 1, 1] block [128, 1, 1] forloop 4 {
      %xt = input_loader %xg imap <x = -1> fmap 1 : tensor<2x64xf16> -> !mirage_block.stensor<2x16xf16>
      %wt = input_loader %wg imap <x = -1> fmap 0 : tensor<64x32xf16> -> !mirage_block.stensor<16x32xf16>
      %m = matmul %xt, %wt : !mirage_block.stensor<2x16xf16>, !mirage_block.stensor<16x32xf16> -> !mirage_block.stensor<2x32xf16>
      %a = forloop_accum %m sum : !mirage_block.stensor<2x32xf16> -> !mirage_block.stensor<2x32xf16>
      %out = output_saver %a omap <x = -1> : !mirage_block.stensor<2x32xf16> -> tensor<2x32xf16>
      yield %out : tensor<2x32xf16>
    }
    return %o : tensor<2x32xf16>
  })mlir";

class CostModelTest : public ::testing::Test {
protected:
  CostModelTest() {
    DialectRegistry registry;
    registry.insert<func::FuncDialect>();
    registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
    module = parseSourceString<ModuleOp>(kLinear, &context);
    function = *module->getOps<func::FuncOp>().begin();
    program = *sem::buildProgram(function);
  }

  /// The facts of the function's schedule on `chip`.
  ProgramFacts schedule(const Chip &chip) {
    std::optional<ProgramFacts> facts =
        scheduleFunction(function, program, {&chip}, chip,
                         CodegenOptions().getScheduleOptions());
    EXPECT_TRUE(facts.has_value());
    return facts.value_or(ProgramFacts(program.graphs.size()));
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  func::FuncOp function;
  sem::Program program;
  const Chip &chip = *lookupChip("sm_90a");
};

TEST_F(CostModelTest, ReadsTheScheduleOfEveryGraphDef) {
  ProgramFacts facts = schedule(chip);
  ASSERT_EQ(facts.size(), 2u);
  EXPECT_FALSE(facts[0].has_value());
  ASSERT_TRUE(facts[1].has_value());
  EXPECT_EQ(facts[1]->threads, 128);
  EXPECT_EQ(facts[1]->matmulEngines.size(), 1u);
  CostEstimate cost = estimateCost(program, chip, facts);
  EXPECT_TRUE(cost.scheduled);
  EXPECT_EQ(cost.sharedBytes, facts[1]->sharedBytes);
  EXPECT_TRUE(std::isfinite(cost.microseconds));
}

TEST_F(CostModelTest, AnUnscheduledGraphDefHasNoFiniteCost) {
  CostEstimate cost =
      estimateCost(program, chip, ProgramFacts(program.graphs.size()));
  EXPECT_FALSE(cost.scheduled);
  EXPECT_TRUE(std::isinf(cost.microseconds));
  CostEstimate scheduled = estimateCost(program, chip, schedule(chip));
  EXPECT_TRUE(scheduled < cost);
}

TEST_F(CostModelTest, AClusterLaunchCostsWhatTheChipSays) {
  ProgramFacts facts = schedule(chip);
  CostEstimate plain = estimateCost(program, chip, facts);
  // The same kernel, its one block a cluster of one along x: a cluster of
  // one block is no cluster.
  sem::Program clustered = program;
  EXPECT_EQ(estimateCost(clustered, chip, facts).microseconds,
            plain.microseconds);
  clustered.graphs[1].grid = {2, 1, 1};
  clustered.graphs[1].cluster = {2, 1, 1};
  sem::Program twoBlocks = program;
  twoBlocks.graphs[1].grid = {2, 1, 1};
  EXPECT_GT(chip.clusterLaunchMicroseconds, 0.0);
  EXPECT_DOUBLE_EQ(estimateCost(clustered, chip, facts).microseconds,
                   estimateCost(twoBlocks, chip, facts).microseconds +
                       chip.clusterLaunchMicroseconds);
}

TEST_F(CostModelTest, TheEngineComesFromTheSchedule) {
  ProgramFacts facts = schedule(chip);
  facts[1]->matmulEngines = {MatmulEngine::Simt};
  CostEstimate simt = estimateCost(program, chip, facts);
  facts[1]->matmulEngines = {MatmulEngine::MmaSync};
  CostEstimate mma = estimateCost(program, chip, facts);
  facts[1]->matmulEngines = {MatmulEngine::Wgmma};
  CostEstimate wgmma = estimateCost(program, chip, facts);
  // 2x32 results of 64 terms: exact on the SIMT cores, rows padded to 16
  // for mma.sync and to 64 for wgmma.
  EXPECT_EQ(simt.multiplyAdds, 2.0 * 32 * 64);
  EXPECT_EQ(mma.multiplyAdds, 16.0 * 32 * 64);
  EXPECT_EQ(wgmma.multiplyAdds, 64.0 * 32 * 64);
  EXPECT_EQ(countMultiplyAdds(program), 2.0 * 32 * 64);
}

TEST_F(CostModelTest, Bf16MatmulsCostWhatF16OnesDo) {
  // The same program on bf16: scheduled on the same engine, at the same
  // tensor-core throughput.
  std::string source = kLinear;
  for (size_t at = source.find("xf16>"); at != std::string::npos;
       at = source.find("xf16>", at))
    source.replace(at, 5, "xbf16>");
  OwningOpRef<ModuleOp> bf16Module =
      parseSourceString<ModuleOp>(source, &context);
  ASSERT_TRUE(bf16Module);
  func::FuncOp bf16Function = *bf16Module->getOps<func::FuncOp>().begin();
  sem::Program bf16Program = *sem::buildProgram(bf16Function);
  for (const Chip *target : {lookupChip("sm_80"), &chip}) {
    ProgramFacts f16Facts = schedule(*target);
    std::optional<ProgramFacts> bf16Facts =
        scheduleFunction(bf16Function, bf16Program, {target}, *target,
                         CodegenOptions().getScheduleOptions());
    ASSERT_TRUE(bf16Facts.has_value());
    ASSERT_TRUE((*bf16Facts)[1].has_value());
    EXPECT_EQ((*bf16Facts)[1]->matmulEngines,
              std::vector<MatmulEngine>{MatmulEngine::MmaSync});
    EXPECT_EQ((*bf16Facts)[1]->matmulEngines, f16Facts[1]->matmulEngines);
    CostEstimate f16Cost = estimateCost(program, *target, f16Facts);
    CostEstimate bf16Cost = estimateCost(bf16Program, *target, *bf16Facts);
    EXPECT_EQ(bf16Cost.multiplyAdds, f16Cost.multiplyAdds);
    EXPECT_EQ(bf16Cost.microseconds, f16Cost.microseconds);
  }
}

TEST_F(CostModelTest, ThreadsAndPipeliningComeFromTheSchedule) {
  ProgramFacts facts = schedule(chip);
  facts[1]->matmulEngines = {MatmulEngine::Simt};
  facts[1]->threads = 128;
  CostEstimate wide = estimateCost(program, chip, facts);
  facts[1]->threads = 32;
  CostEstimate narrow = estimateCost(program, chip, facts);
  // Fewer threads each add up more terms in turn.
  EXPECT_LT(wide.microseconds, narrow.microseconds);
  facts[1]->stages = 4;
  CostEstimate overlapped = estimateCost(program, chip, facts);
  facts[1]->stages = 0;
  CostEstimate serial = estimateCost(program, chip, facts);
  EXPECT_LT(overlapped.microseconds, serial.microseconds);
}

TEST_F(CostModelTest, WavesFollowTheScheduledResidentBlocks) {
  // 264 blocks of a copy kernel on 132 SMs: one wave with 2 resident
  // blocks, two with 1.
  OwningOpRef<ModuleOp> copies = parseSourceString<ModuleOp>(R"mlir(
    func.func @rows(%x: tensor<16896x1024xf16>) -> tensor<16896x1xf16> {
      %o = mirage_kernel.graph_def(%xg = %x : tensor<16896x1024xf16>) -> tensor<16896x1xf16> grid [264, 1, 1] block [128, 1, 1] forloop 1 {
        %xt = input_loader %xg imap <x = 0> : tensor<16896x1024xf16> -> !mirage_block.stensor<64x1024xf16>
        %r = reduction %xt dim 1 : !mirage_block.stensor<64x1024xf16> -> !mirage_block.stensor<64x1xf16>
        %out = output_saver %r omap <x = 0> : !mirage_block.stensor<64x1xf16> -> tensor<16896x1xf16>
        yield %out : tensor<16896x1xf16>
      }
      return %o : tensor<16896x1xf16>
    })mlir",
                                                             &context);
  sem::Program rows =
      *sem::buildProgram(*copies->getOps<func::FuncOp>().begin());
  KernelFacts kernel;
  kernel.threads = 128;
  kernel.residentBlocks = 2;
  ProgramFacts facts = {std::nullopt, kernel};
  CostEstimate oneWave = estimateCost(rows, chip, facts);
  facts[1]->residentBlocks = 1;
  CostEstimate twoWaves = estimateCost(rows, chip, facts);
  // The sums count once per wave: 64 sums of 1,024 terms split in 4 slices
  // of 256 over 128 threads, two (slice, sum) pairs each and 2 pairwise
  // steps, 514 terms at 20 ns.
  EXPECT_NEAR(twoWaves.microseconds - oneWave.microseconds, 10.28, 0.01);
}

TEST_F(CostModelTest, LanePartialsComeFromTheSchedule) {
  // 16 rows of 3,584 halves summed in 8 iterations of 448 by 128 threads.
  OwningOpRef<ModuleOp> norms = parseSourceString<ModuleOp>(R"mlir(
    func.func @rms(%x: tensor<16x3584xf16>) -> tensor<16x1xf16> {
      %o = mirage_kernel.graph_def(%X = %x : tensor<16x3584xf16>) -> (tensor<16x1xf16>) grid [1, 1, 1] block [128, 1, 1] forloop 8 {
        %xt = input_loader %X imap <> fmap 1 : tensor<16x3584xf16> -> !mirage_block.stensor<16x448xf16>
        %r = forloop_accum %xt rms_last : !mirage_block.stensor<16x448xf16> -> !mirage_block.stensor<16x1xf16>
        %s = output_saver %r omap <> : !mirage_block.stensor<16x1xf16> -> tensor<16x1xf16>
        yield %s : tensor<16x1xf16>
      }
      return %o : tensor<16x1xf16>
    })mlir",
                                                            &context);
  func::FuncOp rms = *norms->getOps<func::FuncOp>().begin();
  sem::Program rows = *sem::buildProgram(rms);
  std::optional<ProgramFacts> facts = scheduleFunction(
      rms, rows, {&chip}, chip, CodegenOptions().getScheduleOptions());
  ASSERT_TRUE(facts.has_value());
  ASSERT_TRUE((*facts)[1].has_value());
  // The code generator's decision: 56 runs of 8 halves a row, 8 lanes a
  // row.
  ASSERT_EQ((*facts)[1]->lanePartials.size(), 1u);
  ASSERT_TRUE((*facts)[1]->lanePartials[0].has_value());
  EXPECT_EQ((*facts)[1]->lanePartials[0]->lanes, 8);
  EXPECT_EQ((*facts)[1]->lanePartials[0]->termRun, 8);
  // Without stages the loads and the sums add up, so the difference is the
  // sums'. The model counts an accumulator's terms once, as fitted
  // (docs/Search.md, "Cost model"): a lane adds 7 runs of 8 terms, then a
  // result's 8 lanes, 64 terms; with 4 lanes, 14 runs and 4 lanes, 116.
  (*facts)[1]->stages = 0;
  CostEstimate eight = estimateCost(rows, chip, *facts);
  (*facts)[1]->lanePartials[0]->lanes = 4;
  CostEstimate four = estimateCost(rows, chip, *facts);
  EXPECT_NEAR(four.microseconds - eight.microseconds, 52 * 0.020, 1e-9);
  // Without lane partials the sum follows the slices rule.
  (*facts)[1]->lanePartials.clear();
  EXPECT_NE(estimateCost(rows, chip, *facts).microseconds, eight.microseconds);
}

} // namespace
