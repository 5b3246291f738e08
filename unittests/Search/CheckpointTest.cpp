//===- CheckpointTest.cpp - Checkpoints and programs as JSON
//---------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Search/Checkpoint.h"
#include "Mirage/Search/ProgramSchedule.h"

#include "Mirage/InitAllDialects.h"
#include "Mirage/Semantics/Import.h"
#include "Mirage/Semantics/ProgramJSON.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <gtest/gtest.h>

#include <atomic>
#include <csignal>
#include <sys/resource.h>
#include <thread>

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
    auto function = *module->getOps<func::FuncOp>().begin();
    reference = *sem::buildProgram(function);
    options.schedule = getScheduler(128, *options.chip, &context);
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

  /// A checkpoint path in the temporary directory, removed (with its lock
  /// file) when the test ends.
  std::string temporaryPath() {
    SmallString<128> path;
    EXPECT_FALSE(
        llvm::sys::fs::createTemporaryFile("checkpoint", "json", path));
    llvm::sys::fs::remove(path);
    paths.push_back(path.str().str());
    return paths.back();
  }

  ~CheckpointTest() override {
    for (const std::string &path : paths) {
      llvm::sys::fs::remove(path);
      llvm::sys::fs::remove(path + ".lock");
    }
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  sem::Program reference;
  BlockSearchOptions options;
  std::vector<std::string> paths;
};

/// Replaces the first elementwise op of `program`'s bodies by another of the
/// same operands (a binary op by mul or div, a unary op or rms_norm by
/// sqrt); false when it has none.
bool changeAnOp(sem::Program &program) {
  for (sem::Graph &graph : llvm::drop_begin(program.graphs))
    for (sem::Node &node : graph.nodes) {
      if (sem::isBinary(node.kind)) {
        sem::OpKind mul = sem::toOpKind(ElementwiseKind::Mul);
        node.kind =
            node.kind == mul ? sem::toOpKind(ElementwiseKind::Div) : mul;
        return true;
      }
      if (sem::isUnary(node.kind) || node.kind == sem::OpKind::RmsNorm) {
        sem::OpKind sqrt = sem::toOpKind(ElementwiseKind::Sqrt);
        node.kind =
            node.kind == sqrt ? sem::toOpKind(ElementwiseKind::Exp) : sqrt;
        return true;
      }
    }
  return false;
}

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
}

TEST_F(CheckpointTest, RejectsCyclesAndUndefinedValues) {
  // The kernel graph: values x, w, n = rms_norm(x), o = matmul(n, w). The
  // matmul's operand becomes its own result, or a value nothing defines;
  // the error names the file, the search and the op
  // (unittests/Semantics/ProgramJSONTest.cpp pins the reader's rules).
  for (int32_t operand : {3, 4}) {
    sem::Program broken = reference;
    broken.graphs[0].nodes[1].operands[0] = operand;
    if (operand == 4)
      broken.graphs[0].values.push_back(broken.graphs[0].values.front());
    std::string path = temporaryPath();
    std::string error;
    CheckpointEntry entry;
    entry.candidates = {broken};
    ASSERT_TRUE(succeeded(writeCheckpoint(path, "f", entry, error))) << error;
    EXPECT_TRUE(failed(readCheckpoint(path, "f", error)));
    EXPECT_EQ(
        error.rfind("checkpoint '" + path + "' has an invalid entry for 'f': ",
                    0),
        0u)
        << error;
    EXPECT_NE(error.find("entry.candidates[0].ops[1].operands[0]"),
              std::string::npos)
        << error;
  }
}

TEST_F(CheckpointTest, VerifiesTheCandidatesItResumesFromAgain) {
  options.checkpointPath = temporaryPath();
  options.checkpointKey = "f";
  std::vector<RankedProgram> found = search();
  ASSERT_EQ(found.size(), 3u);

  // Change an op of the best candidate, with a valid checksum.
  std::string error;
  FailureOr<std::optional<CheckpointEntry>> entry =
      readCheckpoint(options.checkpointPath, "f", error);
  ASSERT_TRUE(succeeded(entry) && *entry) << error;
  sem::Program &tampered = (*entry)->candidates.front();
  ASSERT_TRUE(changeAnOp(tampered));
  ASSERT_TRUE(
      succeeded(writeCheckpoint(options.checkpointPath, "f", **entry, error)))
      << error;

  // Every range is done: the search resumes with the recorded candidates,
  // and drops the changed one.
  std::vector<RankedProgram> resumed = search();
  EXPECT_EQ(resumed.size(), 2u);
  for (const RankedProgram &candidate : resumed)
    EXPECT_NE(print(sem::toJSON(candidate.program)),
              print(sem::toJSON(tampered)));
}

TEST_F(CheckpointTest, ConcurrentWritersKeepEveryEntry) {
  std::string path = temporaryPath();
  CheckpointEntry entry;
  entry.candidates = {reference};
  constexpr int kThreads = 4, kWrites = 10;
  std::atomic<int> failures = 0;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < kWrites; ++i) {
        std::string error;
        if (failed(writeCheckpoint(path, llvm::formatv("f{0}_{1}", t, i).str(),
                                   entry, error)))
          ++failures;
      }
    });
  for (std::thread &thread : threads)
    thread.join();
  EXPECT_EQ(failures, 0);
  for (int t = 0; t < kThreads; ++t)
    for (int i = 0; i < kWrites; ++i) {
      std::string error;
      FailureOr<std::optional<CheckpointEntry>> read =
          readCheckpoint(path, llvm::formatv("f{0}_{1}", t, i).str(), error);
      ASSERT_TRUE(succeeded(read)) << error;
      EXPECT_TRUE(read->has_value()) << t << " " << i;
    }
}

TEST_F(CheckpointTest, FailedWritesKeepThePreviousFile) {
  std::string path = temporaryPath();
  std::string error;
  CheckpointEntry entry;
  entry.candidates = {reference};
  ASSERT_TRUE(succeeded(writeCheckpoint(path, "f", entry, error))) << error;
  auto before = llvm::MemoryBuffer::getFile(path);
  ASSERT_TRUE(bool(before));

  // A file-size limit makes the larger file fail to be written, as a full
  // disk would (with SIGXFSZ ignored, the write fails with EFBIG).
  entry.candidates.assign(8, reference);
  rlimit saved;
  ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &saved), 0);
  rlimit limited = saved;
  limited.rlim_cur = (*before)->getBufferSize();
  auto handler = std::signal(SIGXFSZ, SIG_IGN);
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &limited), 0);
  bool written = succeeded(writeCheckpoint(path, "f", entry, error));
  setrlimit(RLIMIT_FSIZE, &saved);
  std::signal(SIGXFSZ, handler);

  EXPECT_FALSE(written);
  EXPECT_EQ(error,
            "checkpoint '" + path + "' cannot be written: File too large");
  auto after = llvm::MemoryBuffer::getFile(path);
  ASSERT_TRUE(bool(after));
  EXPECT_EQ((*after)->getBuffer(), (*before)->getBuffer());
  std::error_code code;
  for (llvm::sys::fs::directory_iterator
           it(llvm::sys::path::parent_path(path), code),
       end;
       it != end && !code; it.increment(code))
    EXPECT_FALSE(StringRef(it->path()).starts_with(path + ".tmp"))
        << it->path();
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
  // The halved grid sizes change what a range finds.
  BlockSearchOptions halved = options;
  halved.largestGridSize = 64;
  EXPECT_NE(fingerprintSearch(reference, halved), base);
}

} // namespace
