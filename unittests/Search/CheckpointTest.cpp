//===- CheckpointTest.cpp - Checkpoints and programs as JSON ---------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Search/Checkpoint.h"

#include "Mirage/InitAllDialects.h"
#include "Mirage/Semantics/Import.h"
#include "Mirage/Semantics/ProgramJSON.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::mirage;
using namespace mlir::mirage::search;

namespace {

std::string print(const llvm::json::Value &value) {
  return llvm::formatv("{0}", value).str();
}

class CheckpointTest : public ::testing::Test {
protected:
  CheckpointTest() {
    DialectRegistry registry;
    registry.insert<func::FuncDialect>();
    registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
    module = parseSourceString<ModuleOp>(R"mlir(
      func.func @rmsnorm_linear(%x: tensor<2x64xf16>, %w: tensor<64x32xf16>) -> tensor<2x32xf16> {
        %n = mirage_kernel.rms_norm %x size 64 : tensor<2x64xf16>
        %o = mirage_kernel.matmul %n, %w : tensor<2x64xf16>, tensor<64x32xf16> -> tensor<2x32xf16>
        return %o : tensor<2x32xf16>
      })mlir",
                                         &context);
    reference = *sem::buildProgram(*module->getOps<func::FuncOp>().begin());
    options.forloopRanges = {1, 4};
    options.maxCandidates = 3;
  }

  /// The best candidates of the reference, cheapest first.
  std::vector<RankedProgram> search() {
    BlockSearchStatistics statistics;
    std::string error;
    FailureOr<std::vector<RankedProgram>> found =
        searchBlockGraphs(reference, options, statistics, error);
    EXPECT_TRUE(succeeded(found)) << error;
    return succeeded(found) ? std::move(*found) : std::vector<RankedProgram>();
  }

  std::string temporaryPath() {
    SmallString<128> path;
    EXPECT_FALSE(llvm::sys::fs::createTemporaryFile("checkpoint", "json", path));
    llvm::sys::fs::remove(path);
    return path.str().str();
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  sem::Program reference;
  BlockSearchOptions options;
};

TEST_F(CheckpointTest, KeepsTheBestCandidatesCheapestFirst) {
  std::vector<RankedProgram> found = search();
  ASSERT_EQ(found.size(), 3u);
  EXPECT_FALSE(found[1].cost < found[0].cost);
  EXPECT_FALSE(found[2].cost < found[1].cost);
}

TEST_F(CheckpointTest, ProgramsRoundTripThroughJSON) {
  std::vector<RankedProgram> found = search();
  ASSERT_FALSE(found.empty());
  for (const sem::Program &program : {reference, found.front().program}) {
    llvm::json::Value json = sem::toJSON(program);
    sem::Program read;
    llvm::json::Path::Root root;
    ASSERT_TRUE(sem::fromJSON(json, read, root));
    EXPECT_EQ(print(sem::toJSON(read)), print(json));
  }
}

TEST_F(CheckpointTest, WritesReadsAndDetectsDamage) {
  std::string path = temporaryPath();
  std::string error;
  FailureOr<std::optional<CheckpointEntry>> missing =
      readCheckpoint(path, "f", error);
  ASSERT_TRUE(succeeded(missing));
  EXPECT_FALSE(*missing);

  CheckpointEntry entry;
  entry.fingerprint = fingerprintSearch(reference, options);
  entry.rangesDone = {1, 4};
  entry.statistics.states = 42;
  entry.candidates = {search().front().program};
  ASSERT_TRUE(succeeded(writeCheckpoint(path, "f", entry, error))) << error;
  ASSERT_TRUE(succeeded(writeCheckpoint(path, "g", entry, error))) << error;

  FailureOr<std::optional<CheckpointEntry>> read =
      readCheckpoint(path, "f", error);
  ASSERT_TRUE(succeeded(read)) << error;
  ASSERT_TRUE(*read);
  EXPECT_EQ((*read)->fingerprint, entry.fingerprint);
  EXPECT_EQ((*read)->rangesDone, entry.rangesDone);
  EXPECT_EQ((*read)->statistics.states, 42);
  ASSERT_EQ((*read)->candidates.size(), 1u);
  EXPECT_EQ(print(sem::toJSON((*read)->candidates.front())),
            print(sem::toJSON(entry.candidates.front())));
  EXPECT_TRUE(succeeded(readCheckpoint(path, "g", error)));

  // One changed character fails the checksum.
  auto buffer = llvm::MemoryBuffer::getFile(path);
  ASSERT_TRUE(bool(buffer));
  std::string text = (*buffer)->getBuffer().str();
  size_t states = text.find("\"states\": 42");
  ASSERT_NE(states, std::string::npos);
  text.replace(states, 12, "\"states\": 43");
  {
    std::error_code code;
    llvm::raw_fd_ostream os(path, code);
    os << text;
  }
  EXPECT_TRUE(failed(readCheckpoint(path, "f", error)));
  EXPECT_NE(error.find("damaged (checksum mismatch)"), std::string::npos);
  llvm::sys::fs::remove(path);
}

TEST_F(CheckpointTest, RefusesCheckpointsOfTheFirstVersion) {
  // Version 1 wrote programs in a form of their own.
  std::string path = temporaryPath();
  {
    std::error_code code;
    llvm::raw_fd_ostream os(path, code);
    os << R"({"format": "mirage-search-checkpoint", "version": 1,
              "checksum": "0", "searches": {}})";
  }
  std::string error;
  EXPECT_TRUE(failed(readCheckpoint(path, "f", error)));
  EXPECT_EQ(error, "checkpoint '" + path +
                       "' has an unsupported version (expected 2)");
  llvm::sys::fs::remove(path);
}

TEST_F(CheckpointTest, FingerprintsFollowTheOptionsThatMatter) {
  std::string base = fingerprintSearch(reference, options);
  BlockSearchOptions other = options;
  other.forloopRanges = {1, 2, 4, 8};
  other.threads = 2;
  other.timeLimitSeconds = 5;
  EXPECT_EQ(fingerprintSearch(reference, other), base);
  other.maxOps = 3;
  EXPECT_NE(fingerprintSearch(reference, other), base);
}

} // namespace
