//===- BlockGraphSearch.cpp - Search one- and two-kernel µGraphs ----------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Search/BlockGraphSearch.h"

#include "Enumerator.h"
#include "Worker.h"

#include "Mirage/Dialect/Common/ShapeRules.h"
#include "Mirage/Search/Checkpoint.h"
#include "Mirage/Search/CostModel.h"
#include "Mirage/Semantics/Equivalence.h"
#include "Mirage/Semantics/ProgramJSON.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <atomic>
#include <cmath>
#include <limits>
#include <map>
#include <thread>

using namespace mlir;
using namespace mlir::mirage;
using namespace mlir::mirage::search;
using namespace mlir::mirage::search::detail;
using sem::Graph;
using sem::Node;
using sem::OpKind;
using sem::ValueType;

namespace {

/// Throughput of the finite-field matmul on one core of this machine kind
/// (docs/Benchmarks/Verifier.md), and the trials a check usually takes.
constexpr double kFieldMultiplyAddsPerSecond = 2.5e8;
constexpr double kVerificationTrials = 3.0;
/// Under a time limit, the part of each for-loop range's share of the time
/// left that its exploration may take; the rest is its verification's.
constexpr double kExploreShare = 0.8;
/// The launches explored first have about this many blocks per SM.
constexpr double kPreferredWaves = 4.0;
/// A linear split's first kernel (grid x over the output's last
/// dimension) has at most this many blocks per multiprocessor: the split
/// is worth its second kernel where the one-kernel launch leaves SMs idle.
/// (On an H200, LoRA's fastest splits of a 4096-column output ran 128 and
/// 256 blocks on 132 SMs; docs/Benchmarks/Generality.md.)
constexpr int64_t kLinearSplitBlocksPerMultiprocessor = 2;
/// By default, grid sizes go up to this many blocks per multiprocessor
/// (BlockSearchOptions::largestGridSize): 1056 on an H100, 864 on an A100.
constexpr int64_t kLargestBlocksPerMultiprocessor = 8;
/// Passes over the for-loop ranges: the second continues those the first
/// stopped, with the time the others left, and explores their cluster
/// launches.
constexpr unsigned kPasses = 2;

/// What a for-loop range has done, for a later pass to continue.
struct RangeState {
  /// Per exploration task, in the order explored: explored to its end.
  std::vector<char> exploredTasks;
  /// Compilable candidates not checked yet, cheapest first.
  std::vector<std::pair<CostEstimate, sem::Program>> unchecked;

  bool isExplored() const {
    return llvm::all_of(exploredTasks, [](char done) { return done; });
  }
};

/// What checking a candidate found; `Stopped` when the time limit ended the
/// check first (the candidate is not used).
enum class CheckResult { NotEquivalent, Equivalent, Stopped };

bool isCheaper(const CostEstimate &cost, const RankedProgram &other) {
  return cost < other.cost;
}

/// Searches the µGraphs of one reference: for-loop range by range, the
/// launches shared among the workers, then the verification of the range's
/// candidates that may enter the best K.
class Searcher {
public:
  Searcher(const sem::Program &reference, const BlockSearchOptions &options,
           BlockSearchStatistics &statistics)
      : reference(reference), options(options), statistics(statistics),
        shared(reference, options), deadline(options.timeLimitSeconds) {}

  FailureOr<std::vector<RankedProgram>> run(std::string &error);

private:
  /// Fails for overrides that do not fit the reference.
  LogicalResult checkOverrides(std::string &error) const;
  /// Fails, naming the first input whose imaps or fmaps override no launch
  /// can load (with the inputs before it loaded as theirs say), when the
  /// overrides leave no configuration to search.
  LogicalResult checkOverridesLoad(std::string &error);
  /// Restores the state a checkpoint recorded, if any, keeping the
  /// candidates that pass verification again; fails when the checkpoint
  /// cannot be read or written.
  LogicalResult resume(std::string &error);
  /// Records the state after a range in the checkpoint, if any.
  LogicalResult saveCheckpoint(std::string &error) const;
  /// The launches of one-kernel µGraphs and of the first kernel of split
  /// µGraphs with for-loop range `forloop`.
  SmallVector<Launch> getLaunches(int64_t forloop) const;
  /// The grid sizes that split a dimension of `extent`: the listed sizes
  /// that divide it and, where the extent is not a power of two, the extent
  /// halved while it stays whole, from 2 up to the largest listed size (112
  /// rows: 7, 14, 28, 56 and 112 besides 2 to 16).
  SmallVector<int64_t> getGridSizes(int64_t extent) const;
  /// Until when, in seconds since the start, a for-loop range may run when
  /// `left` ranges, it included, share the time left in this pass.
  double getRangeEnd(size_t left) const;
  /// The order in which launches are explored, lowest first.
  double getLaunchPriority(const Launch &launch) const;
  /// Explores the configurations of `launches` that `state` does not record
  /// as explored, with every worker, one configuration of a launch at a
  /// time, in the order of their priority (cluster launches only when
  /// `clusters`); returns the complete candidates in the order one thread
  /// would find them.
  std::vector<sem::Program> explore(ArrayRef<Launch> launches,
                                    RangeState &state, bool clusters);
  /// Schedules `candidates` not seen before into the range's queue and
  /// verifies those the code generator compiles, cheapest first as
  /// scheduled, while they may enter the best K; false when the time limit
  /// or the range's share stopped it (the rest stay queued).
  bool verify(std::vector<sem::Program> candidates, RangeState &state);
  /// The cost of `program` (of its final form, if the options give one) as
  /// the code generator schedules it; nothing when the code generator
  /// refuses it.
  std::optional<CostEstimate> estimate(const sem::Program &program) const;
  /// Whether the verifier finds `program` equivalent to the reference
  /// before the time limit; fails when the reference cannot be checked.
  FailureOr<CheckResult> check(const sem::Program &program);
  /// Adds a verified candidate to the best K; true when it is the best.
  bool keep(sem::Program program, const CostEstimate &cost);
  /// Whether verifying `program` (its estimated field multiply-adds over the
  /// usual trials) ends before `until` seconds since the start.
  bool affordable(const sem::Program &program, double until);
  /// The statistics: the checkpoint's, the workers' and this run's.
  BlockSearchStatistics collectStatistics() const;
  /// Seconds since the search began, runs resumed from a checkpoint
  /// included.
  double totalSeconds() const {
    return resumed.seconds + shared.elapsedSeconds();
  }
  void reportProgress(int64_t forloop, size_t launches) const;

  const sem::Program &reference;
  const BlockSearchOptions &options;
  BlockSearchStatistics &statistics;
  SharedState shared;
  /// The time limit, for the checks: a check it stops leaves its candidate
  /// unverified.
  sem::Deadline deadline;
  /// What the reference's graph_defs are made of (expressions per worker).
  KernelSpace prototype;
  std::vector<std::unique_ptr<Worker>> workers;
  /// Checked and verified candidates, and when.
  BlockSearchStatistics verification;
  /// What runs resumed from the checkpoint had done.
  BlockSearchStatistics resumed;
  /// Candidates of the checkpoint whose check the time limit stopped.
  int64_t resumedUnverified = 0;
  std::vector<int64_t> rangesDone;
  std::string fingerprint;
  /// Created on first use: it evaluates the reference.
  std::optional<sem::EquivalenceChecker> checker;
  /// The best verified candidates, cheapest first.
  std::vector<RankedProgram> found;
  /// When the current for-loop range's share of the time ends, in seconds
  /// since the start.
  double rangeEnd = std::numeric_limits<double>::infinity();
  /// What each for-loop range has left for a later pass.
  std::map<int64_t, RangeState> rangeStates;
  /// The keys of the candidates scheduled so far, up to the order of grid
  /// axes.
  llvm::StringSet<> seenKeys;
};

LogicalResult Searcher::checkOverrides(std::string &error) const {
  // `perItem` entries for each of the items (inputs or the output) whose
  // ranks are `ranks`.
  auto check = [&](StringRef name, ArrayRef<int32_t> values, size_t perItem,
                   StringRef items, ArrayRef<int64_t> ranks) {
    size_t expected = perItem * ranks.size();
    if (!values.empty() && values.size() != expected) {
      error = llvm::formatv("{0} has {1} entries; the reference has {2} "
                            "{3}{4}, so it needs {5}",
                            name, values.size(), ranks.size(), items,
                            ranks.size() == 1 ? "" : "s", expected)
                  .str();
      return false;
    }
    for (auto [i, value] : llvm::enumerate(values)) {
      int64_t rank = ranks[i / perItem];
      if (value < -1 || value >= rank) {
        error = llvm::formatv("{0} entry {1} is {2}, not -1 or a dimension "
                              "of {3} {4} (rank {5})",
                              name, i, value, items, i / perItem, rank)
                    .str();
        return false;
      }
    }
    return true;
  };
  SmallVector<int64_t> inputRanks;
  for (const ValueType &type : prototype.inputTypes)
    inputRanks.push_back(type.shape.size());
  int64_t outputRank = prototype.output.shape.size();
  return success(check("omap", options.omap, 2, "output", outputRank) &&
                 check("imaps", options.imaps, 2, "input", inputRanks) &&
                 check("fmaps", options.fmaps, 1, "input", inputRanks));
}

LogicalResult Searcher::checkOverridesLoad(std::string &error) {
  if (options.imaps.empty() && options.fmaps.empty())
    return success();
  // The configurations of every range with the imaps of the first
  // `imapInputs` inputs and the fmaps of the first `fmapInputs` pinned.
  auto count = [&](size_t imapInputs, size_t fmapInputs) {
    KernelSpace space = prototype;
    space.imaps =
        ArrayRef<int32_t>(options.imaps)
            .take_front(std::min(2 * imapInputs, options.imaps.size()));
    space.fmaps = ArrayRef<int32_t>(options.fmaps)
                      .take_front(std::min(fmapInputs, options.fmaps.size()));
    Worker worker(shared, space);
    int64_t configurations = 0;
    for (int64_t forloop : options.forloopRanges)
      for (const Launch &launch : getLaunches(forloop))
        configurations += worker.countConfigurations(launch);
    return configurations;
  };
  size_t inputs = prototype.inputTypes.size();
  // Without launches, or with a configuration, the overrides are not why
  // nothing is searched.
  if (count(0, 0) == 0 || count(inputs, inputs) != 0)
    return success();
  size_t input = 1;
  while (count(input, input) != 0)
    ++input;
  --input;
  bool byImap = !options.imaps.empty() && count(input + 1, input) == 0;
  std::string override =
      byImap ? llvm::formatv("imaps override of input {0} (x = {1}, y = {2})",
                             input, options.imaps[2 * input],
                             options.imaps[2 * input + 1])
                   .str()
             : llvm::formatv("fmaps override of input {0} (dimension {1})",
                             input, options.fmaps[input])
                   .str();
  error = llvm::formatv("the {0} matches no load of it in any launch{1}, so "
                        "no configuration is left to search",
                        override,
                        input == 0 ? ""
                                   : " that fits the overrides of the inputs "
                                     "before it")
              .str();
  return failure();
}

LogicalResult Searcher::resume(std::string &error) {
  if (options.checkpointPath.empty())
    return success();
  if (failed(checkCheckpointWritable(options.checkpointPath, error)))
    return failure();
  FailureOr<std::optional<CheckpointEntry>> entry =
      readCheckpoint(options.checkpointPath, options.checkpointKey, error);
  if (failed(entry))
    return failure();
  if (!*entry)
    return success();
  if ((*entry)->fingerprint != fingerprint) {
    error = ("checkpoint '" + Twine(options.checkpointPath) +
             "' records a search of '" + options.checkpointKey +
             "' with another reference or other options; remove the file "
             "or pass another one")
                .str();
    return failure();
  }
  resumed = (*entry)->statistics;
  rangesDone = (*entry)->rangesDone;
  // Anyone who can change the file can recompute its checksum: the
  // candidates are verified again before they may replace the reference.
  // Their checks count in the time limit too: one it stops is not used.
  for (sem::Program &program : (*entry)->candidates) {
    std::optional<CostEstimate> cost = estimate(program);
    FailureOr<CheckResult> result =
        cost ? check(program) : FailureOr<CheckResult>(failure());
    if (succeeded(result) && *result == CheckResult::Stopped)
      ++resumedUnverified;
    else if (failed(result) || *result != CheckResult::Equivalent)
      ++verification.droppedCandidates;
    else
      keep(std::move(program), *cost);
  }
  return success();
}

LogicalResult Searcher::saveCheckpoint(std::string &error) const {
  if (options.checkpointPath.empty())
    return success();
  CheckpointEntry entry;
  entry.fingerprint = fingerprint;
  entry.rangesDone = rangesDone;
  entry.statistics = collectStatistics();
  for (const RankedProgram &candidate : found)
    entry.candidates.push_back(candidate.program);
  return writeCheckpoint(options.checkpointPath, options.checkpointKey, entry,
                         error);
}

FailureOr<std::vector<RankedProgram>> Searcher::run(std::string &error) {
  if (failed(checkSearchable(reference, error)))
    return failure();
  const Graph &kernel = reference.getKernelGraph();
  prototype.output = kernel.values[kernel.outputs.front()];
  for (int32_t input : kernel.inputs)
    prototype.inputTypes.push_back(kernel.values[input]);
  prototype.labels = labelDimensions(reference);
  prototype.maxOps = options.maxOps;
  prototype.maxAccumulators = options.maxAccumulators;
  prototype.vocabulary = chooseVocabulary(kernel);
  prototype.clusterVocabulary = chooseClusterVocabulary(kernel);
  prototype.imaps = options.imaps;
  prototype.fmaps = options.fmaps;
  if (failed(checkOverrides(error)) || failed(checkOverridesLoad(error)))
    return failure();
  if (!options.schedule) {
    error = "the search has no kernel scheduler (BlockSearchOptions::schedule)";
    return failure();
  }
  fingerprint = fingerprintSearch(reference, options);
  if (failed(resume(error)))
    return failure();

  for (unsigned i = 0; i < std::max(options.threads, 1u); ++i)
    workers.push_back(std::make_unique<Worker>(shared, prototype));
  SmallVector<int64_t> pending;
  for (int64_t forloop : options.forloopRanges) {
    if (llvm::is_contained(rangesDone, forloop))
      ++verification.resumedRanges;
    else
      pending.push_back(forloop);
  }
  // Under a time limit, a second pass gives the time the first left to the
  // ranges it stopped, where they stopped.
  for (unsigned pass = 0; pass < kPasses && !pending.empty(); ++pass) {
    SmallVector<int64_t> unfinished;
    for (auto [index, forloop] : llvm::enumerate(pending)) {
      // Exploration takes part of the range's share, verification the rest.
      double start = shared.elapsedSeconds();
      rangeEnd = getRangeEnd(pending.size() - index);
      shared.beginRange(start + (rangeEnd - start) * kExploreShare);
      if (workers.front()->done())
        break;
      RangeState &state = rangeStates[forloop];
      SmallVector<Launch> launches = getLaunches(forloop);
      // Cluster launches wait for the second pass: the time the others
      // leave.
      std::vector<sem::Program> candidates =
          explore(launches, state, /*clusters=*/pass > 0);
      // A range counts as done once it is explored and every candidate that
      // could enter the best K was verified.
      if (verify(std::move(candidates), state) && state.isExplored()) {
        rangesDone.push_back(forloop);
        ++verification.ranges;
        if (failed(saveCheckpoint(error)))
          return failure();
      } else {
        unfinished.push_back(forloop);
      }
      reportProgress(forloop, launches.size());
    }
    pending = std::move(unfinished);
  }
  statistics = collectStatistics();
  return std::move(found);
}

BlockSearchStatistics Searcher::collectStatistics() const {
  BlockSearchStatistics total = resumed;
  for (const std::unique_ptr<Worker> &worker : workers) {
    addCounts(total, worker->statistics);
    total.oracleQueries += worker->getOracleStatistics().queries;
    total.oracleCacheHits += worker->getOracleStatistics().cacheHits;
  }
  addCounts(total, verification);
  if (verification.firstSeconds >= 0.0 && total.firstSeconds < 0.0)
    total.firstSeconds = verification.firstSeconds;
  if (verification.bestSeconds >= 0.0)
    total.bestSeconds = verification.bestSeconds;
  total.seconds = totalSeconds();
  total.timedOut = shared.timedOut;
  total.tooLargeToVerify = verification.tooLargeToVerify;
  total.resumedRanges = verification.resumedRanges;
  total.droppedCandidates = verification.droppedCandidates;
  // Under the time limit, the candidates left that could have entered the
  // best K.
  total.unverified = resumedUnverified;
  for (const auto &[forloop, state] : rangeStates)
    for (const auto &[cost, candidate] : state.unchecked)
      if (found.size() < options.maxCandidates || isCheaper(cost, found.back()))
        ++total.unverified;
  return total;
}

void Searcher::reportProgress(int64_t forloop, size_t launches) const {
  if (!options.progress)
    return;
  BlockSearchStatistics now = collectStatistics();
  *options.progress << llvm::formatv(
      "mirage-superoptimize: {0}: forloop {1}: {2} launches, {3} states, {4} "
      "complete, {5} of {6} verified",
      options.checkpointKey.empty() ? "search" : options.checkpointKey, forloop,
      launches, now.states, now.complete, now.verified, now.checked);
  if (!found.empty())
    *options.progress << llvm::formatv(", best {0:f1} us",
                                       found.front().cost.microseconds);
  *options.progress << llvm::formatv(", {0:f1} s{1}\n", now.seconds,
                                     now.timedOut ? " (time limit)" : "");
  options.progress->flush();
}

double Searcher::getRangeEnd(size_t left) const {
  if (options.timeLimitSeconds <= 0.0)
    return std::numeric_limits<double>::infinity();
  // The ranges still to search in this pass, this one included, share the
  // time left equally; one that finishes early leaves its time to the next.
  double now = shared.elapsedSeconds();
  return now + (options.timeLimitSeconds - now) /
                   static_cast<double>(std::max<size_t>(left, 1));
}

double Searcher::getLaunchPriority(const Launch &launch) const {
  // Launches of a few waves of blocks fill the GPU without a long tail:
  // the distance, in powers of two, from kPreferredWaves waves.
  double blocks =
      static_cast<double>(launch.grid[0] * launch.grid[1] * launch.grid[2]);
  double preferred =
      kPreferredWaves * static_cast<double>(options.chip->multiprocessors);
  return std::abs(std::log2(blocks / preferred));
}

SmallVector<int64_t> Searcher::getGridSizes(int64_t extent) const {
  return search::getGridSizes(extent, options);
}

SmallVector<Launch> Searcher::getLaunches(int64_t forloop) const {
  // Grid axes x and y over distinct output dimensions (x first).
  ArrayRef<int64_t> out = prototype.output.shape;
  SmallVector<std::pair<int32_t, int64_t>> axisChoices = {{-1, 1}};
  for (auto [d, extent] : llvm::enumerate(out))
    for (int64_t size : getGridSizes(extent))
      axisChoices.push_back({static_cast<int32_t>(d), size});
  auto omapAllows = [&](unsigned axis, int32_t dim) {
    return options.omap.empty() || options.omap[axis] == dim;
  };
  SmallVector<Launch> launches;
  for (auto [dx, gx] : axisChoices)
    for (auto [dy, gy] : axisChoices) {
      if (!options.singleKernels)
        break;
      if ((dx < 0 && dy >= 0) || (dx >= 0 && dx == dy) ||
          gx * gy > options.maxBlocks || !omapAllows(0, dx) ||
          !omapAllows(1, dy))
        continue;
      Launch launch;
      launch.grid = {gx, gy, 1};
      launch.outputDims = {dx, dy, -1};
      launch.forloop = forloop;
      launches.push_back(launch);
    }
  // Row clusters: grid x over an output dimension the reference sums or
  // normalises along (a softmax's or a norm's row), its blocks one cluster
  // that sums the row's parts; grid y over another output dimension.
  // Overrides pin the maps of the launches without clusters: with one,
  // none has a cluster.
  SmallVector<int64_t> clusterSizes;
  if (options.clusters && options.singleKernels && options.omap.empty() &&
      options.imaps.empty() && options.fmaps.empty())
    clusterSizes = getClusterSizes(*options.chip);
  for (auto [dx, gx] : axisChoices)
    for (auto [dy, gy] : axisChoices) {
      if (dx < 0 || !llvm::is_contained(clusterSizes, gx) || dx == dy ||
          gx * gy > options.maxBlocks || !omapAllows(0, dx) ||
          !omapAllows(1, dy))
        continue;
      int32_t label = prototype.labels.output[dx];
      if (!prototype.labels.isSummed(label) &&
          !prototype.labels.isNormalised(label))
        continue;
      Launch launch;
      launch.grid = {gx, gy, 1};
      launch.outputDims = {dx, dy, -1};
      launch.clusterAxis = 0;
      launch.forloop = forloop;
      launches.push_back(launch);
    }
  if (!options.splitKernels)
    return launches;
  // Split launches: grid x over an output dimension (or none), grid y over
  // the input dimensions of one reduced label, and with x, optionally grid z
  // over another output dimension (the query rows of split-KV attention);
  // the partial results are stacked along the last dimension, so they need
  // an output of rank > 1 whose last dimension x and z leave alone, but
  // where the output is linear in the label's sums: its blocks' terms then
  // stack along another dimension (a linear split, Worker::visitLinearSplit).
  // An `omap` override pins x alone.
  llvm::SmallSetVector<std::pair<int32_t, int64_t>, 4> reduced;
  for (auto [type, labels] :
       llvm::zip(prototype.inputTypes, prototype.labels.inputs))
    for (auto [extent, label] : llvm::zip(type.shape, labels))
      if (extent > 1 && prototype.labels.isReduced(label))
        reduced.insert({label, extent});
  ExprPool pool;
  ExprId target = computeOutputExpressions(reference, pool).front();
  llvm::DenseSet<int32_t> linear;
  for (auto [label, extent] : reduced)
    if (widenSplitSums(pool, target, extent, 1))
      linear.insert(label);
  int32_t last = static_cast<int32_t>(out.size()) - 1;
  for (auto [dx, gx] : axisChoices)
    for (auto [dz, gz] : axisChoices)
      for (auto [label, extent] : reduced)
        for (int64_t gy : getGridSizes(extent)) {
          if (gx * gy * gz > options.maxBlocks || out.size() < 2 ||
              !omapAllows(0, dx))
            continue;
          if (dx == last &&
              (!options.linearSplits || !linear.contains(label) || dz >= 0 ||
               gx * gy > kLinearSplitBlocksPerMultiprocessor *
                             options.chip->multiprocessors))
            continue;
          if (dz >= 0 &&
              (dx < 0 || dz == dx || dz == last || !options.omap.empty()))
            continue;
          Launch launch;
          launch.grid = {gx, gy, gz};
          launch.outputDims = {dx, -1, dz};
          launch.splitAxis = 1;
          launch.splitLabel = label;
          launch.forloop = forloop;
          launches.push_back(launch);
          // The same split in one kernel: the blocks of the split, grid x,
          // one cluster, whose `cluster_reduce_scatter` leaves each block a
          // chunk of the output's last dimension to finish and save, where
          // the split's parts would be stacked.
          if (dx == last || !llvm::is_contained(clusterSizes, gy) ||
              out.back() % gy != 0)
            continue;
          launch.grid = {gy, gx, gz};
          launch.outputDims = {last, dx, dz};
          launch.splitAxis = 0;
          launch.clusterAxis = 0;
          launches.push_back(launch);
        }
  return launches;
}

std::vector<sem::Program> Searcher::explore(ArrayRef<Launch> launches,
                                            RangeState &state, bool clusters) {
  // One task per configuration: a launch's configurations can differ in
  // cost by orders of magnitude, and one launch may hold most of a range.
  // A range's share of the time may end before all are explored, so
  // one-kernel launches go first (few configurations; no second launch nor
  // partial results to write), then split ones, each kind those that fill
  // the GPU best first.
  SmallVector<size_t> order =
      llvm::to_vector(llvm::seq<size_t>(0, launches.size()));
  auto kind = [](const Launch &launch) {
    return launch.isCluster() ? 2 : launch.isSplit() ? 1 : 0;
  };
  llvm::stable_sort(order, [&](size_t a, size_t b) {
    return std::make_pair(kind(launches[a]), getLaunchPriority(launches[a])) <
           std::make_pair(kind(launches[b]), getLaunchPriority(launches[b]));
  });
  std::vector<std::pair<size_t, int64_t>> tasks;
  for (size_t i : order)
    for (int64_t c = 0, e = workers.front()->countConfigurations(launches[i]);
         c < e; ++c)
      tasks.push_back({i, c});
  // A task stopped by the time limit is explored again from its start in a
  // later pass; verification skips the candidates it already checked.
  state.exploredTasks.resize(tasks.size(), false);
  std::vector<std::vector<sem::Program>> results(tasks.size());
  std::atomic<size_t> next = 0;
  auto work = [&](Worker &worker) {
    for (size_t i = next++; i < tasks.size() && !worker.done(); i = next++) {
      if (state.exploredTasks[i] ||
          (!clusters && launches[tasks[i].first].isCluster()))
        continue;
      worker.explore(launches[tasks[i].first], tasks[i].second, results[i]);
      if (!worker.done())
        state.exploredTasks[i] = true;
    }
  };
  if (workers.size() == 1) {
    work(*workers.front());
  } else {
    std::vector<std::thread> threads;
    for (std::unique_ptr<Worker> &worker : workers)
      threads.emplace_back(work, std::ref(*worker));
    for (std::thread &thread : threads)
      thread.join();
  }
  std::vector<sem::Program> candidates;
  for (std::vector<sem::Program> &programs : results)
    for (sem::Program &program : programs)
      candidates.push_back(std::move(program));
  return candidates;
}

bool Searcher::affordable(const sem::Program &program, double until) {
  if (options.timeLimitSeconds <= 0.0)
    return true;
  // The checker evaluates the pair at reduced sizes where it can.
  double seconds =
      countMultiplyAdds(
          sem::reduceParallelDimensions(reference, program).candidate) *
      kVerificationTrials / kFieldMultiplyAddsPerSecond;
  return shared.elapsedSeconds() + seconds <= until;
}

std::optional<CostEstimate>
Searcher::estimate(const sem::Program &program) const {
  std::optional<sem::Program> form;
  if (options.finalForm && !(form = options.finalForm(program)))
    return std::nullopt;
  const sem::Program &ranked = form ? *form : program;
  std::optional<ProgramFacts> facts = options.schedule(ranked);
  if (!facts)
    return std::nullopt;
  return estimateCost(ranked, *options.chip, *facts);
}

bool Searcher::verify(std::vector<sem::Program> candidates, RangeState &state) {
  int64_t checkedInRange = 0;
  for (sem::Program &candidate : candidates) {
    // Scheduling is part of the search's time.
    if (shared.outOfTime())
      return false;
    // A task explored again finds its candidates again, and candidates that
    // differ only in the order of grid axes or of commutative operands are
    // one.
    if (!seenKeys.insert(getCandidateKey(candidate)).second)
      continue;
    if (std::optional<CostEstimate> cost = estimate(candidate))
      state.unchecked.push_back({*cost, std::move(candidate)});
    else
      ++verification.uncompilable;
  }
  // Equal costs keep the order found, so results are deterministic.
  llvm::stable_sort(state.unchecked, [](const auto &a, const auto &b) {
    return a.first < b.first;
  });
  // The candidates checked leave the queue, those not checked stay.
  size_t checked = 0;
  llvm::scope_exit dequeue([&] {
    state.unchecked.erase(state.unchecked.begin(),
                          state.unchecked.begin() + checked);
  });
  for (auto &[cost, candidate] : state.unchecked) {
    if (found.size() >= options.maxCandidates &&
        !isCheaper(cost, found.back())) {
      // None of the rest can enter the best K, now or later.
      checked = state.unchecked.size();
      break;
    }
    // The time limit bounds verification too: a candidate is checked only
    // if its estimated cost fits in the time left (the checker evaluates
    // the reference once per trial), and a check the estimate misjudged
    // stops at the limit.
    if (shared.outOfTime())
      return false;
    double limit = options.timeLimitSeconds;
    if (!affordable(candidate, limit) ||
        (!checker && !affordable(reference, limit))) {
      verification.tooLargeToVerify = true;
      return false;
    }
    // Past its first check, a range verifies within its share of the time,
    // so that the later ranges' candidates get checked too.
    if (checkedInRange++ != 0 && !affordable(candidate, rangeEnd))
      return false;
    // A check the time limit stops leaves its candidate queued, unverified.
    FailureOr<CheckResult> result = check(candidate);
    if (failed(result) || *result == CheckResult::Stopped)
      return false;
    ++checked;
    ++verification.checked;
    if (*result == CheckResult::NotEquivalent)
      continue;
    ++verification.verified;
    double now = totalSeconds();
    if (verification.firstSeconds < 0.0 && resumed.firstSeconds < 0.0)
      verification.firstSeconds = now;
    if (keep(std::move(candidate), cost))
      verification.bestSeconds = now;
  }
  return true;
}

FailureOr<CheckResult> Searcher::check(const sem::Program &program) {
  // A check the time limit stopped is no verdict.
  auto stopped = [&] {
    shared.timedOut = true;
    return CheckResult::Stopped;
  };
  std::string error;
  if (!checker) {
    sem::EquivalenceOptions checkOptions;
    checkOptions.seed = options.seed;
    FailureOr<sem::EquivalenceChecker> created =
        sem::EquivalenceChecker::create(reference, checkOptions, error,
                                        deadline);
    if (failed(created) && deadline.hasPassed())
      return stopped();
    if (failed(created))
      return failure();
    checker.emplace(std::move(*created));
  }
  FailureOr<sem::EquivalenceVerdict> verdict =
      checker->check(program, error, deadline);
  if (failed(verdict) && deadline.hasPassed())
    return stopped();
  // Any other failure (the candidate leaves the verifiable fragment or its
  // limits) is a candidate that cannot be verified.
  return succeeded(verdict) && verdict->equivalent ? CheckResult::Equivalent
                                                   : CheckResult::NotEquivalent;
}

bool Searcher::keep(sem::Program program, const CostEstimate &cost) {
  auto position = std::upper_bound(found.begin(), found.end(), cost, isCheaper);
  bool best = position == found.begin();
  found.insert(position, {std::move(program), cost});
  if (found.size() > options.maxCandidates)
    found.pop_back();
  return best;
}

} // namespace

namespace {

/// True for the ops whose two operands commute exactly (a + b, a * b).
bool isCommutative(const sem::Node &node) {
  return node.operands.size() == 2 &&
         (node.kind == sem::toOpKind(ElementwiseKind::Add) ||
          node.kind == sem::toOpKind(ElementwiseKind::Mul));
}

/// Renumbers the nodes and values of `graph` into one topological order
/// that does not depend on the order they were found in: from the inputs,
/// the next node is the ready one of the least signature (its kind,
/// attributes, result types and renumbered operands, those of a commutative
/// op sorted). Two graphs that differ only in the order of independent
/// nodes, of commutative operands, or in values that nothing names come out
/// the same.
void canonicalizeOrder(sem::Graph &graph) {
  std::vector<int32_t> id(graph.values.size(), -1);
  int32_t next = 0;
  for (int32_t input : graph.inputs)
    if (id[input] < 0)
      id[input] = next++;
  auto signature = [&](const sem::Node &node) {
    SmallVector<int64_t> operands;
    for (int32_t operand : node.operands)
      operands.push_back(id[operand]);
    if (isCommutative(node))
      llvm::sort(operands);
    std::string text;
    llvm::raw_string_ostream os(text);
    os << int(node.kind) << ' ' << node.dim << ' ' << node.size << ' '
       << llvm::bit_cast<uint64_t>(node.scalar) << ' ' << int(node.accum) << ' '
       << node.body << ' ' << node.map[0] << ',' << node.map[1] << ','
       << node.map[2] << ' ';
    for (int64_t operand : operands)
      os << operand << ',';
    for (int32_t result : node.results) {
      os << ';' << int(graph.values[result].elementType);
      for (int64_t extent : graph.values[result].shape)
        os << 'x' << extent;
    }
    return text;
  };
  std::vector<sem::Node> ordered;
  std::vector<bool> placed(graph.nodes.size(), false);
  while (ordered.size() < graph.nodes.size()) {
    std::optional<std::pair<std::string, size_t>> best;
    for (auto [index, node] : llvm::enumerate(graph.nodes)) {
      if (placed[index] || llvm::any_of(node.operands, [&](int32_t operand) {
            return id[operand] < 0;
          }))
        continue;
      std::string key = signature(node);
      if (!best || key < best->first)
        best = {std::move(key), index};
    }
    // A node whose operands never become ready: not a valid program, whose
    // key is left as it is.
    if (!best)
      return;
    placed[best->second] = true;
    for (int32_t result : graph.nodes[best->second].results)
      id[result] = next++;
    ordered.push_back(graph.nodes[best->second]);
  }
  // Values no input or node names (slots the enumerator left unused) are
  // dropped.
  std::vector<sem::ValueType> values(next);
  for (auto [index, value] : llvm::enumerate(graph.values))
    if (id[index] >= 0)
      values[id[index]] = value;
  auto renumber = [&](auto &list) {
    for (auto &value : list)
      value = id[value];
  };
  for (sem::Node &node : ordered) {
    renumber(node.operands);
    renumber(node.results);
    if (isCommutative(node))
      llvm::sort(node.operands);
  }
  renumber(graph.inputs);
  renumber(graph.outputs);
  graph.values = std::move(values);
  graph.nodes = std::move(ordered);
}

} // namespace

SmallVector<int64_t> search::getGridSizes(int64_t extent,
                                          const BlockSearchOptions &options) {
  SmallVector<int64_t> sizes;
  for (int64_t size : options.gridSizes)
    if (size > 1 && extent % size == 0)
      sizes.push_back(size);
  int64_t listed =
      options.gridSizes.empty() ? 1 : *llvm::max_element(options.gridSizes);
  int64_t largest = options.largestGridSize;
  if (largest == 0)
    largest = std::max(listed, kLargestBlocksPerMultiprocessor *
                                   options.chip->multiprocessors);
  // Powers of two past the listed sizes, then the halvings of an extent
  // that is not one.
  for (int64_t size = std::max<int64_t>(2, llvm::NextPowerOf2(listed));
       size <= largest && extent % size == 0; size *= 2)
    sizes.push_back(size);
  if (llvm::isPowerOf2_64(extent))
    return sizes;
  for (int64_t size = extent; size >= 2; size /= 2) {
    if (size <= largest && !llvm::is_contained(sizes, size))
      sizes.push_back(size);
    if (size % 2 != 0)
      break;
  }
  return sizes;
}

std::string search::getTilingKey(const sem::Program &program) {
  std::string key;
  llvm::raw_string_ostream os(key);
  for (const Node &node : program.getKernelGraph().nodes) {
    if (node.kind != OpKind::GraphDef) {
      // A kernel-level op, a library call or a hoisted elementwise op.
      os << sem::getOpName(node.kind) << ";";
      continue;
    }
    const Graph &body = program.graphs[node.body];
    os << llvm::formatv("[{0},{1},{2}];", body.grid[0], body.grid[1],
                        body.grid[2]);
  }
  return key;
}

SmallVector<size_t> search::selectCandidates(ArrayRef<std::string> tilings,
                                             size_t count, size_t extra) {
  SmallVector<size_t> kept;
  llvm::StringSet<> seen;
  for (size_t i = 0, e = std::min(count, tilings.size()); i < e; ++i) {
    kept.push_back(i);
    seen.insert(tilings[i]);
  }
  for (size_t i = kept.size(); i < tilings.size() && extra != 0; ++i)
    if (seen.insert(tilings[i]).second) {
      kept.push_back(i);
      --extra;
    }
  return kept;
}

void search::selectCandidates(std::vector<RankedProgram> &ranked, size_t count,
                              size_t extra) {
  SmallVector<std::string> tilings;
  for (const RankedProgram &candidate : ranked)
    tilings.push_back(getTilingKey(candidate.program));
  std::vector<RankedProgram> kept;
  for (size_t i : selectCandidates(tilings, count, extra))
    kept.push_back(std::move(ranked[i]));
  ranked = std::move(kept);
}

std::string search::getCandidateKey(const sem::Program &program) {
  sem::Program canonical = program;
  // Blocks are independent, but within a cluster: the axes a cluster spans
  // keep their place (and so its rank order), the others are ordered.
  for (sem::Graph &body : llvm::drop_begin(canonical.graphs)) {
    // What an axis splits, whatever the order of the body's nodes: its
    // size, then the map of each load (by the input it loads) and save (by
    // the output it writes).
    auto signature = [&](int axis) {
      SmallVector<std::array<int64_t, 3>> maps;
      for (const sem::Node &node : body.nodes) {
        if (node.kind == sem::OpKind::InputLoader)
          maps.push_back(
              {0,
               llvm::find(body.inputs, node.operands[0]) - body.inputs.begin(),
               node.map[axis]});
        else if (node.kind == sem::OpKind::OutputSaver)
          maps.push_back(
              {1,
               llvm::find(body.outputs, node.results[0]) - body.outputs.begin(),
               node.map[axis]});
      }
      llvm::sort(maps);
      SmallVector<int64_t> key = {body.grid[axis]};
      for (const std::array<int64_t, 3> &map : maps)
        key.append(map.begin(), map.end());
      return key;
    };
    std::array<SmallVector<int64_t>, 3> signatures = {
        signature(0), signature(1), signature(2)};
    SmallVector<int, 3> free;
    for (int axis = 0; axis < 3; ++axis)
      if (body.cluster[axis] == 1)
        free.push_back(axis);
    SmallVector<int, 3> sorted = free;
    llvm::stable_sort(
        sorted, [&](int a, int b) { return signatures[a] < signatures[b]; });
    std::array<int, 3> order = {0, 1, 2};
    for (auto [position, axis] : llvm::zip(free, sorted))
      order[position] = axis;
    std::array<int64_t, 3> grid = body.grid;
    for (int axis = 0; axis < 3; ++axis)
      body.grid[axis] = grid[order[axis]];
    for (sem::Node &node : body.nodes) {
      std::array<int32_t, 3> map = node.map;
      for (int axis = 0; axis < 3; ++axis)
        node.map[axis] = map[order[axis]];
    }
  }
  for (sem::Graph &graph : canonical.graphs)
    canonicalizeOrder(graph);
  return sem::getProgramKey(canonical);
}

LogicalResult search::checkSearchable(const sem::Program &reference,
                                      std::string &error) {
  const Graph &kernel = reference.getKernelGraph();
  if (kernel.outputs.size() != 1) {
    error = "the search handles references with one output";
    return failure();
  }
  return checkSearchableOps(reference, error);
}

LogicalResult search::checkSearchableOps(const sem::Program &reference,
                                         std::string &error) {
  const Graph &kernel = reference.getKernelGraph();
  for (const Node &node : kernel.nodes)
    if (node.kind == OpKind::GraphDef || node.kind == OpKind::Chunk ||
        node.kind == OpKind::Concat || node.kind == OpKind::ReductionMax) {
      error = (getOpName(node.kind) + " is outside the searchable fragment "
                                      "(predefined elementwise, matmul, "
                                      "reduction and rms_norm ops)")
                  .str();
      return failure();
    }
  // Tiles have positive extents: a tensor without elements has no tiling.
  for (const ValueType &type : kernel.values)
    if (llvm::is_contained(type.shape, 0)) {
      error = llvm::formatv("tensor<{0}x{1}> has an extent of 0, which no "
                            "tile can split",
                            mirage::formatShape(type.shape),
                            getElementTypeName(type.elementType))
                  .str();
      return failure();
    }
  // No candidate could be verified against a reference the verifier refuses.
  if (failed(sem::checkEvaluationLimits(reference, sizeof(sem::FieldValue),
                                        sem::EvaluationLimits(), error))) {
    error = "the verifier cannot evaluate it: " + error;
    return failure();
  }
  return success();
}

void search::addCounts(BlockSearchStatistics &total,
                       const BlockSearchStatistics &other) {
  total.configurations += other.configurations;
  total.states += other.states;
  total.pruned += other.pruned;
  total.complete += other.complete;
  total.checked += other.checked;
  total.verified += other.verified;
  total.uncompilable += other.uncompilable;
  total.oracleQueries += other.oracleQueries;
  total.oracleCacheHits += other.oracleCacheHits;
  total.ranges += other.ranges;
}

FailureOr<std::vector<RankedProgram>> search::searchBlockGraphs(
    const sem::Program &reference, const BlockSearchOptions &options,
    BlockSearchStatistics &statistics, std::string &error) {
  return Searcher(reference, options, statistics).run(error);
}
