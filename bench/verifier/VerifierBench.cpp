//===- VerifierBench.cpp - Throughput of the equivalence checker ----------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Measures how many candidates per second the finite-field checker verifies,
// the figure the search depends on. Each input file is a module like those of
// mirage-check-equivalence (a reference, then candidates). Prints one
// markdown table row per file:
//
//   mirage-verifier-bench [--checker-threads N] [--min-seconds S] FILE...
//
//===----------------------------------------------------------------------===//

#include "Mirage/InitAllDialects.h"
#include "Mirage/Semantics/Equivalence.h"
#include "Mirage/Semantics/Import.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <chrono>
#include <thread>

using namespace mlir;
using namespace mlir::mirage;

static llvm::cl::list<std::string> files(llvm::cl::Positional,
                                         llvm::cl::desc("<module files>"),
                                         llvm::cl::OneOrMore);
static llvm::cl::opt<unsigned> numThreads("checker-threads",
                                          llvm::cl::desc("Checking threads"),
                                          llvm::cl::init(1));
static llvm::cl::opt<double>
    minSeconds("min-seconds",
               llvm::cl::desc("Repeat the candidates for at least this long"),
               llvm::cl::init(2.0));

using Clock = std::chrono::steady_clock;

static double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// Benchmarks one file; returns false on an error (already printed).
static bool benchFile(MLIRContext &context, StringRef file) {
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(file, &context);
  if (!module)
    return false;
  std::vector<sem::Program> programs;
  for (auto func : module->getOps<func::FuncOp>()) {
    FailureOr<sem::Program> program = sem::buildProgram(func);
    if (failed(program))
      return false;
    programs.push_back(std::move(*program));
  }
  if (programs.size() < 2) {
    llvm::errs() << file << ": needs a reference and a candidate\n";
    return false;
  }
  std::string error;
  Clock::time_point start = Clock::now();
  FailureOr<sem::EquivalenceChecker> checker =
      sem::EquivalenceChecker::create(programs.front(), {}, error);
  if (failed(checker)) {
    llvm::errs() << file << ": " << error << "\n";
    return false;
  }
  double setup = secondsSince(start);

  size_t candidates = programs.size() - 1;
  std::atomic<size_t> next{0}, equivalent{0}, checks{0};
  std::atomic<bool> failedCheck{false};
  start = Clock::now();
  auto work = [&] {
    for (;;) {
      size_t i = next++;
      // Whole rounds over all candidates until the time is up.
      if (i % candidates == 0 && i > 0 && secondsSince(start) >= minSeconds)
        return;
      std::string message;
      FailureOr<sem::EquivalenceVerdict> verdict =
          checker->check(programs[1 + i % candidates], message);
      if (failed(verdict)) {
        failedCheck = true;
        return;
      }
      equivalent += verdict->equivalent;
      ++checks;
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < std::max(1u, unsigned(numThreads)); ++t)
    pool.emplace_back(work);
  for (std::thread &t : pool)
    t.join();
  double elapsed = secondsSince(start);
  if (failedCheck) {
    llvm::errs() << file << ": a candidate could not be checked\n";
    return false;
  }
  llvm::outs() << "| " << llvm::sys::path::filename(file) << " | " << candidates
               << " | " << llvm::format("%.3f", setup) << " | " << checks
               << " | " << llvm::format("%.3f", elapsed) << " | "
               << llvm::format("%.1f", checks / elapsed) << " | "
               << llvm::format("%.1f", 100.0 * equivalent / checks) << "% |\n";
  return true;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  llvm::cl::ParseCommandLineOptions(argc, argv,
                                    "Mirage equivalence-checker throughput\n");
  MLIRContext context;
  DialectRegistry registry;
  mirage::registerAllDialects(registry);
  registry.insert<func::FuncDialect>();
  context.appendDialectRegistry(registry);
  context.loadAllAvailableDialects();

  llvm::outs() << "| module | candidates | reference setup (s) | checks | "
                  "time (s) | candidates/s | equivalent |\n"
               << "|---|---|---|---|---|---|---|\n";
  bool ok = true;
  for (const std::string &file : files)
    ok &= benchFile(context, file);
  return ok ? 0 : 1;
}
