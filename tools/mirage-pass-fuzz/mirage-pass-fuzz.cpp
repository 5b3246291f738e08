//===- mirage-pass-fuzz.cpp - Seeded pass-pipeline fuzzing ----------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// `mirage-pass-fuzz FILE...` runs every pipeline of Pipelines.h on each
// program given and on `--mutations` seeded mutations of it (Mutator.h),
// each run in a child process of its own under a time and an address-space
// limit, and reports every run that did not end in success or a diagnostic:
// a pass failing without an error, an abort, a signal, a run past the time
// limit, a search that ran `--slack` seconds past its own time limit. It
// needs no fuzzing build, so the test command runs a short
// deterministic campaign (docs/Fuzzing.md); mirage-pass-fuzzer is the
// libFuzzer target of the same mutator and pipelines.
//
//===----------------------------------------------------------------------===//

#include "Mutator.h"
#include "Pipelines.h"

#include "Mirage/Support/LargeStack.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <chrono>
#include <csignal>
#include <cstring>
#include <map>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace mlir::mirage::fuzz;
namespace cl = llvm::cl;

static cl::list<std::string> inputPaths(cl::Positional, cl::OneOrMore,
                                        cl::desc("<program files>"));
static cl::opt<unsigned>
    mutations("mutations", cl::init(4),
              cl::desc("Mutated programs per file, besides the file itself"));
static cl::opt<uint64_t> seed("seed", cl::init(1),
                              cl::desc("Seed of the mutations"));
static cl::list<std::string>
    pipelineNames("pipelines", cl::CommaSeparated,
                  cl::desc("Pipelines to run (superoptimize, "
                           "check-equivalence, to-ptx, bundle; default: all)"));
static cl::opt<unsigned>
    timeoutSeconds("timeout", cl::init(60),
                   cl::desc("Seconds a run may take before it counts as a "
                            "hang"));
static cl::opt<unsigned>
    memoryMegabytes("memory-mb", cl::init(12288),
                    cl::desc("Address space of each run, in MiB (the "
                             "verifier's default limit is 8 GiB of values)"));
static cl::opt<double>
    searchSeconds("search-seconds", cl::init(1.0),
                  cl::desc("mirage-superoptimize's time-limit"));
static cl::opt<double>
    checkSeconds("check-seconds", cl::init(5.0),
                 cl::desc("mirage-check-equivalence's time-limit"));
static cl::opt<double>
    slackSeconds("slack", cl::init(5.0),
                 cl::desc("Seconds a mirage-superoptimize run may take past "
                          "its time-limit before it counts as a failure"));
static cl::opt<unsigned> jobs("jobs", cl::init(1), cl::desc("Runs at a time"));
static cl::opt<std::string>
    artifacts("artifacts",
              cl::desc("Directory to write the programs of failed runs to"));
static cl::opt<bool> verbose("v", cl::desc("Print the outcome of every run"));

namespace {

/// One program to run: a file (or a part of one) or a mutation of it.
struct Program {
  std::string origin;
  std::string text;
  /// The program it was mutated from, or itself: the reference of
  /// mirage-check-equivalence for a program of one function.
  std::string reference;
};

/// One run in flight.
struct Run {
  size_t program;
  Pipeline pipeline;
  std::chrono::steady_clock::time_point start;
};

/// Counts per pipeline.
struct Tally {
  int64_t runs = 0, succeeded = 0, diagnosed = 0, failed = 0;
  double longestSeconds = 0;
};

/// A 64-bit mix (splitmix64) of `a` and `b`.
uint64_t mix(uint64_t a, uint64_t b) {
  uint64_t z = a + 0x9e3779b97f4a7c15ull * (b + 1);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/// Runs `pipeline` on `text` in a child process; returns its pid.
pid_t startRun(Pipeline pipeline, const Program &program,
               const Budget &budget) {
  pid_t pid = fork();
  if (pid != 0)
    return pid;
  rlimit memory;
  memory.rlim_cur = memory.rlim_max = rlim_t(memoryMegabytes) << 20;
  setrlimit(RLIMIT_AS, &memory);
  // SIGALRM's default action ends the child: the parent reports a hang.
  alarm(timeoutSeconds);
  int status = mlir::mirage::runWithLargeStack([&] {
    switch (runPipeline(pipeline, program.text, budget, program.reference)) {
    case Outcome::Succeeded:
      return 0;
    case Outcome::Diagnosed:
      return 1;
    case Outcome::FailedSilently:
      return 2;
    }
    return 3;
  });
  std::fflush(nullptr);
  _exit(status);
}

/// What `status`, of a finished child, says; empty for success or a
/// diagnostic.
std::string describeFailure(int status) {
  if (WIFEXITED(status)) {
    switch (WEXITSTATUS(status)) {
    case 0:
    case 1:
      return "";
    case 2:
      return "failed without an error diagnostic";
    default:
      return llvm::formatv("exited with {0}", WEXITSTATUS(status));
    }
  }
  if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
    return llvm::formatv("ran past {0} s (hang)", timeoutSeconds.getValue());
  if (WIFSIGNALED(status))
    return llvm::formatv("killed by signal {0} ({1})", WTERMSIG(status),
                         strsignal(WTERMSIG(status)));
  return "ended in an unknown way";
}

int runCampaign() {
  std::vector<Pipeline> pipelines;
  for (const std::string &name : pipelineNames) {
    std::optional<Pipeline> pipeline = lookupPipeline(name);
    if (!pipeline) {
      llvm::errs() << "mirage-pass-fuzz: unknown pipeline '" << name << "'\n";
      return 2;
    }
    pipelines.push_back(*pipeline);
  }
  if (pipelines.empty())
    pipelines.assign(getPipelines().begin(), getPipelines().end());

  // The parts of each file, as --split-input-file cuts them.
  std::vector<std::string> parts, origins;
  for (const std::string &path : inputPaths) {
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
        llvm::MemoryBuffer::getFile(path);
    if (!buffer) {
      llvm::errs() << "mirage-pass-fuzz: cannot read '" << path
                   << "': " << buffer.getError().message() << "\n";
      return 2;
    }
    llvm::SmallVector<llvm::StringRef> split;
    (*buffer)->getBuffer().split(split, "\n// -----\n");
    for (auto [index, part] : llvm::enumerate(split)) {
      parts.push_back(part.str());
      origins.push_back(
          split.size() == 1
              ? path
              : llvm::formatv("{0}, part {1}", path, index).str());
    }
  }
  // A mutation's seed depends on its part's text, not on the order of the
  // files, so one file and its mutations can be run again alone.
  std::vector<Program> programs;
  for (auto [origin, text] : llvm::zip(origins, parts)) {
    programs.push_back({origin, text, text});
    uint64_t partSeed = mix(seed, llvm::xxh3_64bits(text));
    for (unsigned k = 0; k < mutations; ++k)
      programs.push_back({llvm::formatv("{0}, mutation {1} of seed {2}", origin,
                                        k, seed.getValue()),
                          mutateProgram(text, parts, mix(partSeed, k)), text});
  }

  Budget budget;
  budget.searchSeconds = searchSeconds;
  budget.checkSeconds = checkSeconds;
  std::map<Pipeline, Tally> tallies;
  std::map<pid_t, Run> running;
  int64_t failures = 0;
  auto begin = std::chrono::steady_clock::now();
  auto reap = [&] {
    int status = 0;
    pid_t pid = wait(&status);
    if (pid < 0)
      return;
    Run run = running[pid];
    running.erase(pid);
    double seconds = std::chrono::duration<double>(
                         std::chrono::steady_clock::now() - run.start)
                         .count();
    Tally &tally = tallies[run.pipeline];
    ++tally.runs;
    tally.longestSeconds = std::max(tally.longestSeconds, seconds);
    std::string failure = describeFailure(status);
    // The search's time limit bounds the whole pass (docs/Search.md).
    if (failure.empty() && run.pipeline == Pipeline::Superoptimize &&
        seconds > searchSeconds + slackSeconds)
      failure = llvm::formatv("ran past its time limit of {0} s",
                              searchSeconds.getValue());
    const Program &program = programs[run.program];
    llvm::StringRef name = getPipelineName(run.pipeline);
    if (failure.empty()) {
      bool diagnosed = WEXITSTATUS(status) == 1;
      ++(diagnosed ? tally.diagnosed : tally.succeeded);
      if (verbose)
        llvm::outs() << llvm::formatv(
            "{0}: {1}: {2} in {3:f2} s\n", name, program.origin,
            diagnosed ? "diagnosed" : "succeeded", seconds);
      return;
    }
    ++tally.failed;
    ++failures;
    llvm::outs() << llvm::formatv("FAIL {0}: {1}: {2} after {3:f2} s\n", name,
                                  program.origin, failure, seconds);
    if (artifacts.empty())
      return;
    llvm::SmallString<128> path(artifacts);
    llvm::sys::path::append(path, llvm::formatv("{0}-{1:x16}.mlir", name,
                                                llvm::xxh3_64bits(program.text))
                                      .str());
    std::error_code error;
    llvm::raw_fd_ostream os(path, error);
    if (!error)
      os << program.text;
    llvm::outs() << "  program written to " << path << "\n";
  };

  if (!artifacts.empty())
    llvm::sys::fs::create_directories(artifacts);
  llvm::outs().flush();
  for (auto [index, program] : llvm::enumerate(programs))
    for (Pipeline pipeline : pipelines) {
      while (running.size() >= std::max(jobs.getValue(), 1u))
        reap();
      auto start = std::chrono::steady_clock::now();
      pid_t pid = startRun(pipeline, program, budget);
      if (pid < 0) {
        llvm::errs() << "mirage-pass-fuzz: fork failed\n";
        return 2;
      }
      running[pid] = {index, pipeline, start};
    }
  while (!running.empty())
    reap();

  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - begin)
          .count();
  int64_t runs = 0;
  for (const auto &[pipeline, tally] : tallies)
    runs += tally.runs;
  llvm::outs() << llvm::formatv(
      "mirage-pass-fuzz: {0} programs, {1} mutated programs (seed {2}), {3} "
      "runs in {4:f1} s\n",
      parts.size(), programs.size() - parts.size(), seed.getValue(), runs,
      seconds);
  for (Pipeline pipeline : pipelines) {
    const Tally &tally = tallies[pipeline];
    llvm::outs() << llvm::formatv(
        "  {0}: {1} runs, {2} succeeded, {3} diagnosed, {4} failed; longest "
        "{5:f2} s\n",
        getPipelineName(pipeline), tally.runs, tally.succeeded, tally.diagnosed,
        tally.failed, tally.longestSeconds);
  }
  llvm::outs() << "failures: " << failures << "\n";
  return failures == 0 ? 0 : 1;
}

} // namespace

int main(int argc, char **argv) {
  cl::ParseCommandLineOptions(
      argc, argv,
      "Mirage pass-pipeline fuzzer: runs the superoptimizer, the equivalence "
      "checker, the PTX pipeline and the bundle writer on programs and their "
      "seeded mutations; every run must succeed or end in a diagnostic\n");
  return runCampaign();
}
