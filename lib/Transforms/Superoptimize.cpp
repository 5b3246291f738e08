//===- Superoptimize.cpp - mirage-superoptimize ---------------------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Transforms/Passes.h"

// The dialects the pass produces.
#include "Mirage/Conversion/Passes.h"
#include "Mirage/Dialect/Kernel/IR/KernelOps.h"
#include "Mirage/Search/BlockGraphSearch.h"
#include "Mirage/Search/CostModel.h"
#include "Mirage/Search/KernelPrefix.h"
#include "Mirage/Search/Materialize.h"
#include "Mirage/Search/ProgramSchedule.h"
#include "Mirage/Search/Stabilize.h"
#include "Mirage/Search/Z3Oracle.h"
#include "Mirage/Semantics/Equivalence.h"
#include "Mirage/Semantics/Import.h"
#include "Mirage/Semantics/ProgramJSON.h"
#include "Mirage/Support/Tuning.h"
#include "Mirage/Support/Version.h"
#include "Mirage/Transforms/MeasuredChoice.h"
#include "Mirage/Transforms/ThreadGraphs.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <limits>
#include <numeric>
#include <type_traits>

namespace mlir::mirage {
#define GEN_PASS_DEF_SUPEROPTIMIZEPASS
#include "Mirage/Transforms/Passes.h.inc"
} // namespace mlir::mirage

using namespace mlir;
using namespace mlir::mirage;

namespace {

/// How many more times the parts of a function (the rest after a leading
/// op, the sides of a cut) may be taken apart: once, so that an MLP whose
/// norm is kept as a library op is then cut between its gated half and its
/// down projection.
constexpr int kPartDepth = 1;

/// The share of a function's (or a part's) time its own search has when
/// other forms are searched after it.
constexpr double kWholeShare = 0.75;

/// The candidates emit-candidates collects by default (max-candidates 0):
/// the tuner measures them all, and the cost model's ranking is coarse
/// (qknorm_gqa_bs1's fastest candidate on an H200, 8.4 µs against 9.8 of
/// the best 8, was the cost model's 12th; docs/Search.md, "The pass").
constexpr unsigned kTunedCandidates = 16;

/// The candidates of other tilings emit-candidates adds by default
/// (extra-tilings -1) where candidates are composed or merged: the cost
/// model ranks tilings coarsely (on an H200, Qwen2.5-7B's one-token norm +
/// QKV projection won with the first of its others, 9.5 µs against 10.2;
/// docs/Search.md, "The pass").
constexpr int32_t kExtraTilings = 4;

/// The time of the searches that follow a function's (or a part's) own
/// search: each takes an equal share of what is left when it starts.
class ExtraTime {
public:
  /// `extras` searches until `deadline`, or without a limit unless
  /// `limited`.
  ExtraTime(const sem::Deadline &deadline, bool limited, int extras)
      : deadline(deadline), limited(limited), extras(extras) {}

  /// The next search's seconds (0: no limit), or nothing once the time is
  /// spent.
  std::optional<double> next() {
    if (!limited)
      return 0.0;
    double share = deadline.secondsLeft() / std::max(extras--, 1);
    if (share <= 0)
      return std::nullopt;
    return share;
  }

private:
  const sem::Deadline &deadline;
  bool limited;
  int extras;
};

/// True for a function made of predefined kernel ops only, at least one.
bool isReference(func::FuncOp function) {
  if (function.isExternal())
    return false;
  auto ops = function.getBody().front().without_terminator();
  return !ops.empty() && llvm::all_of(ops, [](Operation &op) {
    return kernel::isPredefinedKernelOp(&op);
  });
}

/// The final projection of `function`, if it is worth searching without: the
/// function returns `matmul(x, w)` of an argument `w` and an `x` computed by
/// ops that hold a matmul of their own (a down projection after a gated
/// MLP), whose only use is this one.
kernel::MatmulOp getFinalProjection(func::FuncOp function) {
  Operation *ret = function.getBody().front().getTerminator();
  if (ret->getNumOperands() != 1)
    return {};
  auto projection = ret->getOperand(0).getDefiningOp<kernel::MatmulOp>();
  if (!projection || !isa<BlockArgument>(projection.getRhs()) ||
      !projection.getLhs().getDefiningOp() || !projection->hasOneUse())
    return {};
  bool matmulBefore =
      llvm::any_of(function.getBody().front().getOps<kernel::MatmulOp>(),
                   [&](kernel::MatmulOp op) { return op != projection; });
  return matmulBefore ? projection : kernel::MatmulOp();
}

/// A copy of `function` without its final projection `projection`: it
/// returns the projection's lhs (the *prefix*). Not in any block; the caller
/// erases it.
func::FuncOp buildPrefix(func::FuncOp function, kernel::MatmulOp projection) {
  auto prefix = cast<func::FuncOp>(function->clone());
  Operation *ret = prefix.getBody().front().getTerminator();
  auto copy = ret->getOperand(0).getDefiningOp<kernel::MatmulOp>();
  ret->setOperand(0, copy.getLhs());
  copy.erase();
  prefix.setType(FunctionType::get(function.getContext(),
                                   function.getArgumentTypes(),
                                   {projection.getLhs().getType()}));
  prefix.setSymName((function.getSymName() + "_prefix").str());
  return prefix;
}

/// A verified program of the search for a function: the whole function's,
/// or its prefix's followed by the final projection (`projected`).
struct Candidate {
  const search::RankedProgram *ranked;
  bool projected;
};

/// The largest grid size, for-loop range and grid the search takes: grids
/// become 32-bit attributes.
constexpr int64_t kMaxExtent = std::numeric_limits<int32_t>::max();

/// `value` as an option would be written (`nan`, `1e+07`, `-1`).
template <typename T> std::string formatOptionValue(T value) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if constexpr (std::is_floating_point_v<T>)
    os << llvm::format("%g", value);
  else
    os << value;
  return text;
}

struct SuperoptimizePass
    : mirage::impl::SuperoptimizePassBase<SuperoptimizePass> {
  using Base::Base;

  void runOnOperation() override {
    search::BlockSearchOptions options;
    if (failed(readOptions(options)))
      return signalPassFailure();
    // The functions as given: those it adds (a tuning group's) are not
    // searched again.
    SmallVector<func::FuncOp> references;
    for (auto function : getOperation().getOps<func::FuncOp>())
      if (isReference(function) && !function->hasAttr(kTuningAttrName))
        references.push_back(function);
    // The time limit bounds the whole module: the functions still to search
    // share the time left equally, and one that finishes early leaves its
    // time to the next.
    sem::Deadline moduleDeadline(timeLimit);
    for (auto [index, function] : llvm::enumerate(references)) {
      double share =
          moduleDeadline.secondsLeft() / double(references.size() - index);
      if (timeLimit > 0 && share <= 0) {
        function.emitRemark("left unchanged: the time limit was spent before "
                            "its search");
        continue;
      }
      if (failed(optimize(function, options, timeLimit > 0 ? share : 0)))
        return signalPassFailure();
    }
  }

  /// Fails, with an error naming the option, its value and the range,
  /// unless `value` lies in [`min`, `max`] (NaN lies in none).
  template <typename T>
  LogicalResult checkRange(StringRef name, T value, T min, T max) {
    if (value >= min && value <= max)
      return success();
    return getOperation().emitError()
           << name << " must be in [" << formatOptionValue(min) << ", "
           << formatOptionValue(max) << "], got " << formatOptionValue(value);
  }

  /// Range-checks every numeric option.
  LogicalResult checkRanges(const search::BlockSearchOptions &defaults) {
    auto checkEach = [&](StringRef name, ArrayRef<int64_t> values) {
      return success(llvm::all_of(values, [&](int64_t value) {
        return succeeded(checkRange<int64_t>(name, value, 1, kMaxExtent));
      }));
    };
    return success(
        succeeded(checkRange<unsigned>("max-ops", maxOps, 1, 16)) &&
        succeeded(checkEach("forloop-ranges", forloopRanges)) &&
        succeeded(checkEach("grid-sizes", gridSizes)) &&
        succeeded(
            checkRange<int64_t>("max-blocks", maxBlocks, 1, kMaxExtent)) &&
        succeeded(
            checkRange<int32_t>("threads", threads, 0, kMaxThreadsPerBlock)) &&
        // No search completes more candidates than maxComplete.
        succeeded(checkRange<unsigned>("max-candidates", maxCandidates, 0,
                                       defaults.maxComplete)) &&
        succeeded(checkRange<int32_t>("extra-tilings", extraTilings, -1,
                                      int32_t(defaults.maxComplete))) &&
        succeeded(checkRange<double>("time-limit", timeLimit, 0,
                                     sem::kMaxTimeLimitSeconds)) &&
        succeeded(checkRange<unsigned>("oracle-timeout", oracleTimeout, 1,
                                       search::kMaxOracleTimeoutMs)) &&
        succeeded(
            checkRange<unsigned>("search-threads", searchThreads, 1, 256)));
  }

  LogicalResult readOptions(search::BlockSearchOptions &options) {
    if (failed(checkRanges(options)))
      return failure();
    options.maxOps = maxOps;
    if (!forloopRanges.empty())
      options.forloopRanges.assign(forloopRanges.begin(), forloopRanges.end());
    // A listed set of sizes also bounds the halved extents.
    if (!gridSizes.empty()) {
      options.gridSizes.assign(gridSizes.begin(), gridSizes.end());
      options.largestGridSize = *llvm::max_element(options.gridSizes);
    }
    options.maxBlocks = maxBlocks;
    options.maxCandidates = maxCandidates != 0 ? maxCandidates
                            : emitCandidates   ? kTunedCandidates
                                               : 1;
    options.extraTilings = extraTilings >= 0 ? extraTilings
                           : emitCandidates  ? kExtraTilings
                                             : 0;
    options.timeLimitSeconds = timeLimit;
    if (!singleKernels && !splitKernels)
      return getOperation().emitError(
          "single-kernels and split-kernels are both off: nothing to search");
    options.singleKernels = singleKernels;
    options.splitKernels = splitKernels;
    options.linearSplits = linearSplits;
    options.clusters = clusters;
    options.kernelPrefixes = kernelPrefixes;
    options.seed = seed;
    options.oracleTimeoutMs = oracleTimeout;
    options.omap.assign(omap.begin(), omap.end());
    options.imaps.assign(imaps.begin(), imaps.end());
    options.fmaps.assign(fmaps.begin(), fmaps.end());
    options.threads = searchThreads;
    options.chip = lookupChip(chip);
    if (!options.chip)
      return getOperation().emitError("chip must be ")
             << getChipNames() << ", got '" << chip << "'";
    if (progress)
      options.progress = &llvm::errs();
    options.checkpointPath = checkpoint;
    return success();
  }

  /// `found`, each followed by its wide-block variant
  /// (search::getWideBlockVariant) where it has one, the code generator
  /// accepts it and block sizes are automatic (`threads` = 0), then by the
  /// cp.async variant of each of the two where TMA copies some of its tiles
  /// (search::getAsyncCopyVariant): the block size and the copy mode are the
  /// tuner's to measure, as the cost model cannot tell them apart reliably.
  std::vector<search::RankedProgram>
  withTuningVariants(ArrayRef<search::RankedProgram> found,
                     const search::BlockSearchOptions &options) {
    std::vector<search::RankedProgram> all;
    auto addWithCopyVariant = [&](const sem::Program &program,
                                  const search::ProgramFacts &facts,
                                  const search::CostEstimate &cost) {
      all.push_back({program, cost});
      if (!copyVariants)
        return;
      std::optional<sem::Program> variant =
          search::getAsyncCopyVariant(program, facts);
      if (!variant)
        return;
      if (std::optional<search::ProgramFacts> copyFacts =
              options.schedule(*variant))
        all.push_back({*variant, search::estimateCost(*variant, *options.chip,
                                                      *copyFacts)});
    };
    for (const search::RankedProgram &candidate : found) {
      std::optional<search::ProgramFacts> facts =
          options.schedule(candidate.program);
      if (!facts) {
        all.push_back(candidate);
        continue;
      }
      addWithCopyVariant(candidate.program, *facts, candidate.cost);
      if (threads != 0)
        continue;
      std::optional<sem::Program> variant =
          search::getWideBlockVariant(candidate.program);
      if (!variant)
        continue;
      std::optional<search::ProgramFacts> wideFacts =
          options.schedule(*variant);
      if (!wideFacts)
        continue;
      addWithCopyVariant(
          *variant, *wideFacts,
          search::estimateCost(*variant, *options.chip, *wideFacts));
    }
    return all;
  }

  /// Emits `candidate` of `function` with `builder` on the function
  /// arguments `arguments`: its program, then the final projection
  /// `projection` (a kernel matmul: a library call in a bundle) if the
  /// candidate is a prefix's. Returns the function's results.
  FailureOr<SmallVector<Value>>
  materializeCandidate(const Candidate &candidate, OpBuilder &builder,
                       Location loc, ValueRange arguments,
                       kernel::MatmulOp projection) {
    FailureOr<SmallVector<Value>> outputs = search::materializeProgram(
        candidate.ranked->program, builder, loc, arguments, threads);
    if (failed(outputs) || !candidate.projected)
      return outputs;
    (*outputs)[0] = kernel::MatmulOp::create(
        builder, loc, projection.getType(), (*outputs)[0],
        arguments[cast<BlockArgument>(projection.getRhs()).getArgNumber()]);
    return outputs;
  }

  /// Adds, after `function` (whose program is `reference`), a copy of it as
  /// @<name>_as_written and `candidates` as @<name>_candidate_<rank>, each
  /// with its estimated time and global-memory traffic: one tuning group
  /// (Mirage/Support/Tuning.h).
  LogicalResult emitCandidatesAfter(func::FuncOp function,
                                    const sem::Program &reference,
                                    ArrayRef<Candidate> candidates,
                                    kernel::MatmulOp projection) {
    OpBuilder builder(function->getContext());
    std::string key = sem::getProgramKey(reference);
    auto markTuning = [&](func::FuncOp member, int64_t candidate) {
      member->setAttr(
          kTuningAttrName,
          builder.getDictionaryAttr(
              {builder.getNamedAttr("key", builder.getStringAttr(key)),
               builder.getNamedAttr(
                   "compiler", builder.getStringAttr(getCompilerVersion())),
               builder.getNamedAttr("candidate",
                                    builder.getI64IntegerAttr(candidate))}));
    };
    auto asWritten = cast<func::FuncOp>(function->clone());
    asWritten.setSymName((function.getSymName() + "_as_written").str());
    markTuning(asWritten, kAsWrittenCandidate);
    builder.setInsertionPointAfter(function);
    builder.insert(asWritten);
    builder.setInsertionPointAfter(asWritten);
    for (auto [rank, candidate] : llvm::enumerate(candidates)) {
      auto copy = func::FuncOp::create(
          builder, function.getLoc(),
          (function.getSymName() + "_candidate_" + Twine(rank)).str(),
          function.getFunctionType());
      markTuning(copy, rank);
      const search::CostEstimate &cost = candidate.ranked->cost;
      copy->setAttr("mirage.estimated_us",
                    builder.getF64FloatAttr(cost.microseconds));
      copy->setAttr("mirage.global_bytes",
                    builder.getI64IntegerAttr(cost.globalBytes));
      Block *body = copy.addEntryBlock();
      OpBuilder inside = OpBuilder::atBlockEnd(body);
      FailureOr<SmallVector<Value>> outputs =
          materializeCandidate(candidate, inside, function.getLoc(),
                               body->getArguments(), projection);
      if (failed(outputs))
        return failure();
      func::ReturnOp::create(inside, function.getLoc(), *outputs);
      if (threadGraphs)
        formThreadGraphs(copy);
      builder.setInsertionPointAfter(copy);
    }
    return success();
  }

  /// Candidates for the prefix of `function` (whose program is `reference`)
  /// without its final projection `projection`, found within `seconds` (0:
  /// no limit), the projection's estimate (a predefined op's) added to
  /// each: what a kernel of the search followed by a library GEMM costs.
  /// None when the prefix is not searchable or the options do not fit it.
  std::vector<search::RankedProgram>
  searchPrefix(func::FuncOp function, const sem::Program &reference,
               kernel::MatmulOp projection,
               const search::BlockSearchOptions &options, double seconds) {
    func::FuncOp prefix = buildPrefix(function, projection);
    llvm::scope_exit erase([&] { prefix.erase(); });
    FailureOr<sem::Program> program = sem::buildProgram(prefix);
    std::string error;
    if (failed(program) || failed(search::checkSearchable(*program, error)))
      return std::vector<search::RankedProgram>();
    search::BlockSearchStatistics stats;
    search::BlockSearchOptions prefixOptions = options;
    prefixOptions.timeLimitSeconds = seconds;
    prefixOptions.checkpointKey = prefix.getSymName().str();
    prefixOptions.schedule =
        search::getScheduler(threads, *options.chip, prefix.getContext());
    FailureOr<std::vector<search::RankedProgram>> found =
        search::searchBlockGraphs(*program, prefixOptions, stats, error);
    // Options written for the whole function (an omap of its output) need
    // not fit the prefix, whose search is an extra: none then.
    if (failed(found))
      return std::vector<search::RankedProgram>();
    search::CostEstimate whole =
        search::estimateCost(reference, *options.chip, search::ProgramFacts());
    search::CostEstimate withoutProjection =
        search::estimateCost(*program, *options.chip, search::ProgramFacts());
    std::vector<search::RankedProgram> all =
        withTuningVariants(*found, prefixOptions);
    for (search::RankedProgram &candidate : all) {
      candidate.cost.microseconds +=
          whole.microseconds - withoutProjection.microseconds;
      candidate.cost.globalBytes +=
          whole.globalBytes - withoutProjection.globalBytes;
      candidate.cost.launches += whole.launches - withoutProjection.launches;
    }
    return all;
  }

  /// Candidates for `part`, a reference cut from a function's (`key` names
  /// it in checkpoints), within `seconds` (0: no limit), cheapest first and
  /// at most `options.maxCandidates`: those of the search, and while `depth`
  /// allows, those made of its own parts (a leading op kept, or the two
  /// sides of a cut), which share what its own search leaves of the time
  /// (it has kWholeShare of it).
  std::vector<search::RankedProgram>
  searchPart(const std::string &key, const sem::Program &part,
             const search::BlockSearchOptions &options, double seconds,
             int depth) {
    std::string error;
    if (failed(search::checkSearchable(part, error)))
      return {};
    sem::Deadline deadline(seconds);
    // As for a function: its own search first, in three quarters of the
    // time when it has parts; the parts share what it leaves.
    SmallVector<int32_t> leadingOps, cutNodes;
    if (depth > 0) {
      // Inside a part, only a library op worth a kernel of its own (a
      // matmul, a norm) is kept: an elementwise op is better fused.
      if (options.kernelPrefixes)
        llvm::copy_if(search::getLeadingOps(part),
                      std::back_inserter(leadingOps), [&](int32_t node) {
                        return !sem::toElementwiseKind(
                            part.getKernelGraph().nodes[node].kind);
                      });
      if (cuts)
        cutNodes = search::getCuts(part);
    }
    int extras = int(!leadingOps.empty()) + int(!cutNodes.empty());
    std::vector<search::RankedProgram> all;
    search::BlockSearchOptions own = options;
    own.timeLimitSeconds =
        seconds > 0 ? (extras > 0 ? seconds * kWholeShare : seconds) : 0;
    own.checkpointKey = key;
    search::BlockSearchStatistics stats;
    FailureOr<std::vector<search::RankedProgram>> found =
        search::searchBlockGraphs(part, own, stats, error);
    if (succeeded(found))
      all = std::move(*found);
    ExtraTime extraTime(deadline, seconds > 0, extras);
    if (std::optional<double> share =
            leadingOps.empty() ? std::nullopt : extraTime.next())
      for (search::RankedProgram &candidate :
           searchLeadingOps(key, part, leadingOps, options, *share, depth - 1))
        all.push_back(std::move(candidate));
    if (std::optional<double> share =
            cutNodes.empty() ? std::nullopt : extraTime.next())
      for (search::RankedProgram &candidate :
           searchCuts(key, part, cutNodes, options, *share, depth - 1))
        all.push_back(std::move(candidate));
    llvm::stable_sort(
        all, [](const auto &a, const auto &b) { return a.cost < b.cost; });
    search::selectCandidates(all, options.maxCandidates, options.extraTilings);
    return all;
  }

  /// Candidates that keep one of the `leading` ops of `reference`
  /// (getLeadingOps) at kernel level (a library GEMM such as attention's
  /// Q·K) and search the rest (searchPart to `depth`), the leading ops
  /// sharing `seconds` (0: no limit); each composed after its op and
  /// estimated as a whole program with `options.schedule`. `key` names the
  /// reference in checkpoints.
  std::vector<search::RankedProgram> searchLeadingOps(
      StringRef key, const sem::Program &reference, ArrayRef<int32_t> leading,
      const search::BlockSearchOptions &options, double seconds, int depth) {
    std::vector<search::RankedProgram> all;
    for (int32_t node : leading) {
      search::PrefixCut cut = search::cutAfter(reference, node);
      std::vector<search::RankedProgram> found = searchPart(
          llvm::formatv("{0}/after-op-{1}", key, node).str(), cut.rest, options,
          seconds / double(leading.size()), depth);
      for (const search::RankedProgram &candidate : found)
        addComposed(search::composeAfter(reference, cut, candidate.program),
                    options, all);
    }
    return all;
  }

  /// Appends `composed` to `all`, estimated as a whole program with
  /// `options.schedule`, unless it cannot be scheduled.
  static void addComposed(sem::Program composed,
                          const search::BlockSearchOptions &options,
                          std::vector<search::RankedProgram> &all) {
    std::optional<search::ProgramFacts> facts = options.schedule(composed);
    if (!facts)
      return;
    search::CostEstimate cost =
        search::estimateCost(composed, *options.chip, *facts);
    all.push_back({std::move(composed), cost});
  }

  /// Candidates made of two parts, one on each side of a cut of
  /// `reference` at one of `cutNodes` (search::getCuts): each side is
  /// searched (searchPart to `depth`) within its share of `seconds` (0: no
  /// limit), and its best few, or the side as written, composed with the
  /// other side's and estimated as a whole program with `options.schedule`.
  /// `key` names the reference in checkpoints.
  std::vector<search::RankedProgram> searchCuts(
      StringRef key, const sem::Program &reference, ArrayRef<int32_t> cutNodes,
      const search::BlockSearchOptions &options, double seconds, int depth) {
    // Candidates of each side composed: the side's best few, and one of
    // each of a few other tilings when the options ask for such.
    constexpr size_t kSideCandidates = 3;
    constexpr size_t kSideExtraTilings = 2;
    size_t sideExtras =
        std::min<size_t>(options.extraTilings, kSideExtraTilings);
    std::vector<search::RankedProgram> all;
    for (int32_t node : cutNodes) {
      std::optional<search::PrefixCut> cut = search::cutAt(reference, node);
      // The side's best candidates, then the side as written.
      auto searchSide = [&](const sem::Program &side, StringRef name) {
        std::vector<sem::Program> programs;
        std::vector<search::RankedProgram> found = searchPart(
            llvm::formatv("{0}/cut-{1}-{2}", key, node, name).str(), side,
            options, seconds / double(2 * cutNodes.size()), depth);
        search::selectCandidates(found, kSideCandidates, sideExtras);
        for (search::RankedProgram &candidate : found)
          programs.push_back(std::move(candidate.program));
        programs.push_back(side);
        return programs;
      };
      std::vector<sem::Program> prefixes = searchSide(cut->prefix, "prefix");
      std::vector<sem::Program> rests = searchSide(cut->rest, "rest");
      for (const sem::Program &prefix : prefixes)
        for (const sem::Program &rest : rests)
          // Both sides as written are the reference.
          if (&prefix != &prefixes.back() || &rest != &rests.back())
            addComposed(search::compose(reference, *cut, prefix, rest), options,
                        all);
    }
    return all;
  }

  /// Replaces the body of `function`, a reference, by `candidate` (see
  /// materializeCandidate).
  LogicalResult replaceBody(func::FuncOp function, const Candidate &candidate,
                            kernel::MatmulOp projection = {}) {
    Block &body = function.getBody().front();
    Operation *ret = body.getTerminator();
    // The reference's ops, dropped once unused, last first.
    SmallVector<Operation *> old;
    for (Operation &op : body.without_terminator())
      old.push_back(&op);
    OpBuilder builder(ret);
    FailureOr<SmallVector<Value>> outputs = materializeCandidate(
        candidate, builder, function.getLoc(), body.getArguments(), projection);
    if (failed(outputs))
      return failure();
    ret->setOperands(*outputs);
    for (Operation *op : llvm::reverse(old))
      op->erase();
    if (threadGraphs)
      formThreadGraphs(function);
    ++numReplaced;
    return success();
  }

  /// Applies the tuning database's measured winner for `function` (whose
  /// program is `reference`) on `chip`, if it has one: true when it did, so
  /// that nothing is searched. Otherwise sets `note` to the remark's words
  /// on why the cost model decides. A database that cannot be read, or a
  /// winner that fails verification (the file was changed), is a warning.
  FailureOr<bool> takeMeasuredChoice(func::FuncOp function,
                                     const sem::Program &reference,
                                     const Chip &chip,
                                     const sem::Deadline &deadline,
                                     std::string &note) {
    std::string error;
    FailureOr<std::string> path =
        resolveTuningDatabasePath(tuningDatabase, error);
    if (failed(path)) {
      note = "; no tuning database (" + error + "): the cost model chose";
      return false;
    }
    std::string key = sem::getProgramKey(reference);
    FailureOr<std::optional<MeasuredChoice>> choice =
        lookupMeasuredChoice(*path, key, chip, tritonWinners, error);
    if (failed(choice)) {
      function.emitWarning(error) << "; the cost model decides";
      note = "; the tuning database could not be read: the cost model chose";
      return false;
    }
    if (!*choice) {
      note = llvm::formatv("; no measurement for {0} in the tuning database "
                           "'{1}': the cost model chose",
                           chip.name, *path);
      return false;
    }
    std::string measured = llvm::formatv(
        "{0:f1} us on {1} ({2}; tuning database '{3}')", (*choice)->medianUs,
        (*choice)->device, (*choice)->date, *path);
    // The Python API runs a function so marked as its Triton module; the
    // runtime launches one marked without overlap kernel after kernel.
    auto markChoice = [&] {
      if ((*choice)->triton)
        function->setAttr(kBackendAttrName,
                          StringAttr::get(function.getContext(), "triton"));
      if (!(*choice)->overlap)
        function->setAttr(kOverlapAttrName,
                          BoolAttr::get(function.getContext(), false));
    };
    StringRef asTriton = (*choice)->triton ? " as Triton" : "";
    StringRef serial = (*choice)->overlap ? "" : ", without overlap";
    if (!(*choice)->program) {
      markChoice();
      function.emitRemark("left as written, measured fastest")
          << asTriton << serial << ": " << measured;
      return true;
    }
    // Anyone who can change the file can change the winner: it replaces the
    // program only once verified, within the time limit.
    sem::EquivalenceOptions checkOptions;
    checkOptions.seed = seed;
    FailureOr<sem::EquivalenceChecker> checker =
        sem::EquivalenceChecker::create(reference, checkOptions, error,
                                        deadline);
    FailureOr<sem::EquivalenceVerdict> verdict =
        succeeded(checker)
            ? checker->check(*(*choice)->program, error, deadline)
            : FailureOr<sem::EquivalenceVerdict>(failure());
    if (failed(verdict) && deadline.hasPassed()) {
      note = "; the tuning database's winner was not verified within the "
             "time limit: the cost model chose";
      return false;
    }
    if (failed(verdict) || !verdict->equivalent) {
      function.emitWarning("tuning database '")
          << *path << "' records a winner for '" << function.getSymName()
          << "' that fails verification (the file was changed); ignored it"
          << (error.empty() ? "" : ": ") << error;
      note = "; the tuning database's winner failed verification: the cost "
             "model chose";
      return false;
    }
    search::RankedProgram winner{*(*choice)->program, {}};
    if (failed(replaceBody(function, {&winner, /*projected=*/false})))
      return failure();
    markChoice();
    function.emitRemark("superoptimized, measured winner (candidate ")
        << (*choice)->candidate << " of its tuning group"
        << ((*choice)->triton ? ", as Triton" : "") << serial
        << "): " << measured;
    return true;
  }

  /// What the searches for a function found.
  struct Found {
    /// Verified candidates, cheapest first.
    std::vector<search::RankedProgram> candidates;
    /// Candidates without the final projection `projection`, which then
    /// runs as a library GEMM (searchPrefix), cheapest first.
    std::vector<search::RankedProgram> prefixes;
    kernel::MatmulOp projection;
    /// What the searches did, for the remark.
    std::string summary;
  };

  /// Searches `function`, whose program `reference` has several outputs,
  /// within `seconds` (0: no limit): one part per output
  /// (search::getOutputParts), each searched as a part (searchPart) in an
  /// equal share of the time; candidate `r` composes each part's `r`-th
  /// cheapest program, the part as written among them, or its last.
  void searchOutputs(func::FuncOp function, const sem::Program &reference,
                     const search::BlockSearchOptions &options,
                     const sem::Deadline &deadline, double seconds,
                     Found &found) {
    SmallVector<search::OutputPart> parts = search::getOutputParts(reference);
    ExtraTime time(deadline, seconds > 0, static_cast<int>(parts.size()));
    // Each part's programs, the part as written last, and their order by
    // cost.
    std::vector<std::vector<search::RankedProgram>> programs;
    std::vector<SmallVector<size_t>> orders;
    SmallVector<std::string> counts;
    for (auto [index, part] : llvm::enumerate(parts)) {
      std::vector<search::RankedProgram> ranked;
      if (std::optional<double> share = time.next())
        ranked = searchPart(
            llvm::formatv("{0}/output-{1}", function.getSymName(), index).str(),
            part.program, options, *share, kPartDepth);
      counts.push_back(std::to_string(ranked.size()));
      ranked.push_back(
          {part.program, search::estimateCost(part.program, *options.chip,
                                              search::ProgramFacts())});
      SmallVector<size_t> order(ranked.size());
      std::iota(order.begin(), order.end(), 0);
      llvm::stable_sort(order, [&](size_t a, size_t b) {
        return ranked[a].cost < ranked[b].cost;
      });
      programs.push_back(std::move(ranked));
      orders.push_back(std::move(order));
    }
    size_t deepest = 0;
    for (const auto &ranked : programs)
      deepest = std::max(deepest, ranked.size());
    for (size_t rank = 0; rank < deepest; ++rank) {
      SmallVector<const sem::Program *> chosen;
      bool allAsWritten = true;
      for (auto [ranked, order] : llvm::zip(programs, orders)) {
        size_t pick = order[std::min(rank, order.size() - 1)];
        chosen.push_back(&ranked[pick].program);
        allAsWritten &= pick + 1 == ranked.size();
      }
      // Every part as written is the reference.
      if (!allAsWritten)
        addComposed(search::composeParts(reference, parts, chosen), options,
                    found.candidates);
    }
    llvm::stable_sort(found.candidates, [](const auto &a, const auto &b) {
      return a.cost < b.cost;
    });
    search::selectCandidates(found.candidates, options.maxCandidates,
                             options.extraTilings);
    found.summary = llvm::formatv(
        "searched its {0} outputs one at a time ({1} candidates each); {2} "
        "compositions",
        parts.size(), llvm::join(counts, ", "), found.candidates.size());
  }

  /// Searches `function`, whose program `reference` has one output, within
  /// `seconds` (0: no limit): the whole function, then the other forms.
  LogicalResult searchWhole(func::FuncOp function,
                            const sem::Program &reference,
                            const search::BlockSearchOptions &options,
                            const sem::Deadline &deadline, double seconds,
                            Found &result) {
    double left = deadline.secondsLeft();
    // Besides the whole function, other forms are searched (the extras):
    // - a final projection after work of its own (a gated MLP's down
    //   projection) may run best as a library GEMM after a kernel the
    //   search finds for the rest;
    // - a leading op (attention's Q·K) may run best as a library GEMM
    //   before kernels the search finds for the rest;
    // - a program of two matmul stages may run best as two parts.
    // The whole function's search comes first, in three quarters of the
    // time when there are extras (most searches exhaust their space in
    // seconds and leave the rest, while the attention searches use all they
    // get); the extras share what it leaves.
    kernel::MatmulOp projection =
        emitCandidates ? getFinalProjection(function) : kernel::MatmulOp();
    // Overrides pin the whole function's kernel: no other form then.
    bool overridden = !options.omap.empty() || !options.imaps.empty() ||
                      !options.fmaps.empty();
    SmallVector<int32_t> leadingOpNodes, cutNodes;
    if (!overridden) {
      if (kernelPrefixes)
        leadingOpNodes = search::getLeadingOps(reference);
      if (cuts)
        cutNodes = search::getCuts(reference);
    }
    bool leadingOps = !leadingOpNodes.empty();
    bool cutsToSearch = !cutNodes.empty();
    int extras = int(bool(projection)) + int(leadingOps) + int(cutsToSearch);
    search::BlockSearchStatistics stats;
    search::BlockSearchOptions wholeOptions = options;
    wholeOptions.timeLimitSeconds =
        seconds > 0 ? (extras > 0 ? left * kWholeShare : left) : 0;
    wholeOptions.checkpointKey = function.getSymName().str();
    std::string error;
    FailureOr<std::vector<search::RankedProgram>> found =
        search::searchBlockGraphs(reference, wholeOptions, stats, error);
    // The reference is searchable: overrides that do not fit it and
    // checkpoints that cannot be used are the user's errors.
    if (failed(found))
      return function.emitError(error);
    if (stats.droppedCandidates != 0)
      function.emitWarning("checkpoint '")
          << options.checkpointPath << "' records " << stats.droppedCandidates
          << " candidate(s) of '" << function.getSymName()
          << "' that fail verification (the file was changed); dropped them";
    ExtraTime extraTime(deadline, seconds > 0, extras);
    if (std::optional<double> share =
            projection ? extraTime.next() : std::nullopt)
      result.prefixes =
          searchPrefix(function, reference, projection, options, *share);
    result.projection = projection;
    std::vector<search::RankedProgram> afterLeadingOps;
    if (std::optional<double> share =
            leadingOps ? extraTime.next() : std::nullopt)
      afterLeadingOps =
          searchLeadingOps(function.getSymName(), reference, leadingOpNodes,
                           options, *share, kPartDepth);
    std::vector<search::RankedProgram> acrossCuts;
    if (std::optional<double> share =
            cutsToSearch ? extraTime.next() : std::nullopt)
      acrossCuts = searchCuts(function.getSymName(), reference, cutNodes,
                              options, *share, kPartDepth);
    // The whole function's candidates, those after a leading op and those
    // across a cut among them by cost (the first on a tie).
    enum Origin { Whole, AfterLeadingOp, AcrossCut };
    std::vector<std::pair<search::RankedProgram, Origin>> merged;
    for (auto [candidates, origin] :
         {std::pair{&*found, Whole},
          std::pair{&afterLeadingOps, AfterLeadingOp},
          std::pair{&acrossCuts, AcrossCut}})
      for (search::RankedProgram &candidate : *candidates)
        merged.push_back({std::move(candidate), origin});
    llvm::stable_sort(merged, [](const auto &a, const auto &b) {
      return a.first.cost < b.first.cost;
    });
    SmallVector<std::string> tilings;
    for (const auto &entry : merged)
      tilings.push_back(search::getTilingKey(entry.first.program));
    size_t afterLeadingOpsKept = 0, acrossCutsKept = 0;
    for (size_t i : search::selectCandidates(tilings, options.maxCandidates,
                                             options.extraTilings)) {
      auto &[candidate, origin] = merged[i];
      afterLeadingOpsKept += origin == AfterLeadingOp;
      acrossCutsKept += origin == AcrossCut;
      result.candidates.push_back(std::move(candidate));
    }
    numStates += stats.states;
    numPruned += stats.pruned;
    numChecked += stats.checked;
    numVerified += stats.verified;
    numUncompilable += stats.uncompilable;
    std::string &summary = result.summary;
    summary = llvm::formatv(
        "{0} configurations, {1} states, {2} values pruned, {3} complete "
        "candidates, {4} of {5} verified in {6:f2} s{7}{8}",
        stats.configurations, stats.states, stats.pruned, stats.complete,
        stats.verified, stats.checked, stats.seconds,
        stats.resumedRanges
            ? llvm::formatv(" ({0} for-loop ranges from the checkpoint)",
                            stats.resumedRanges)
                  .str()
            : "",
        stats.tooLargeToVerify ? " (verification too costly for the time limit)"
        : stats.unverified != 0
            ? llvm::formatv(" (verification stopped at the time limit after "
                            "{0} of {1} candidates)",
                            stats.checked, stats.checked + stats.unverified)
                  .str()
        : stats.timedOut ? " (time limit reached)"
                         : "");
    if (stats.uncompilable != 0)
      summary += llvm::formatv("; {0} left out, the code generator refuses "
                               "them",
                               stats.uncompilable);
    if (stats.firstSeconds >= 0.0)
      summary += llvm::formatv("; first verified after {0:f2} s, best after "
                               "{1:f2} s",
                               stats.firstSeconds, stats.bestSeconds);
    if (projection)
      summary += llvm::formatv("; {0} candidates without the final "
                               "projection, which then runs as a library "
                               "GEMM",
                               result.prefixes.size());
    if (leadingOps)
      summary += llvm::formatv("; kept {0} of {1} candidates that run a "
                               "leading op as a library op",
                               afterLeadingOpsKept, afterLeadingOps.size());
    if (cutsToSearch)
      summary += llvm::formatv("; kept {0} of {1} candidates made of the two "
                               "sides of a cut",
                               acrossCutsKept, acrossCuts.size());
    return success();
  }

  /// Whether `checker` (of the program as written) proves `candidate`
  /// equal to it before `deadline`; the reason in `why` when it does not.
  static bool isProvedEqual(const sem::EquivalenceChecker &checker,
                            const sem::Program &candidate,
                            const sem::Deadline &deadline, std::string &why) {
    FailureOr<sem::EquivalenceVerdict> verdict =
        checker.check(candidate, why, deadline);
    if (failed(verdict))
      return false;
    if (!verdict->equivalent)
      why = "its maximum does not only shift a softmax (the program without "
            "it computes something else)";
    return verdict->equivalent;
  }

  /// Replaces the candidates in `found`, µGraphs of the program without its
  /// maximum shifts, by their stabilised forms (search::stabilize) that the
  /// `checker` (of the program as written) proves equal to it and the code
  /// generator compiles, cheapest first; those without one are dropped, as
  /// are the candidates without the final projection.
  void stabilizeCandidates(const sem::EquivalenceChecker &checker,
                           const search::BlockSearchOptions &options,
                           const sem::Deadline &deadline, Found &found) {
    constexpr double kStabilizeSeconds = 10.0;
    size_t searched = found.candidates.size();
    std::vector<search::RankedProgram> stable;
    std::string error;
    // The search may have spent the time limit: the checks (at reduced
    // sizes, a fraction of a second each) get at least kStabilizeSeconds.
    sem::Deadline checks(std::max(kStabilizeSeconds, deadline.secondsLeft()));
    for (search::RankedProgram &candidate : found.candidates) {
      std::optional<sem::Program> program =
          search::stabilize(candidate.program);
      if (!program || !isProvedEqual(checker, *program, checks, error))
        continue;
      std::optional<search::ProgramFacts> facts = options.schedule(*program);
      if (!facts)
        continue;
      search::CostEstimate cost =
          search::estimateCost(*program, *options.chip, *facts);
      stable.push_back({std::move(*program), cost});
    }
    llvm::stable_sort(
        stable, [](const auto &a, const auto &b) { return a.cost < b.cost; });
    found.candidates = std::move(stable);
    found.prefixes.clear();
    found.projection = kernel::MatmulOp();
    found.summary += llvm::formatv("; the program searched without its "
                                   "maximum shifts, {0} of {1} candidates "
                                   "stabilised (online softmax)",
                                   found.candidates.size(), searched);
  }

  /// Searches `function` within `seconds` (0: no limit), the tuning
  /// database's check included.
  LogicalResult optimize(func::FuncOp function,
                         const search::BlockSearchOptions &options,
                         double seconds) {
    sem::Deadline deadline(seconds);
    FailureOr<sem::Program> reference = sem::buildProgram(function);
    if (failed(reference))
      return failure();
    // Softmax as models write it: the program without its maximum shifts is
    // searched, and its candidates are stabilised (search/Stabilize.h).
    std::optional<sem::Program> plain;
    std::optional<sem::EquivalenceChecker> maxChecker;
    if (llvm::any_of(reference->getKernelGraph().nodes, [](const auto &node) {
          return node.kind == sem::OpKind::ReductionMax;
        })) {
      std::string why;
      plain = search::removeMaxShifts(*reference, why);
      if (plain) {
        FailureOr<sem::EquivalenceChecker> checker =
            sem::EquivalenceChecker::create(
                *reference, sem::EquivalenceOptions(), why, deadline);
        if (succeeded(checker))
          maxChecker.emplace(std::move(*checker));
      }
      if (!maxChecker || !isProvedEqual(*maxChecker, *plain, deadline, why)) {
        function.emitRemark("left unchanged: its reduction_max is outside "
                            "the searchable fragment: ")
            << why;
        return success();
      }
    }
    const sem::Program &searched = plain ? *plain : *reference;
    // A reference with several outputs is searched one output at a time.
    bool severalOutputs = searched.getKernelGraph().outputs.size() > 1;
    std::string error;
    if (failed(severalOutputs ? search::checkSearchableOps(searched, error)
                              : search::checkSearchable(searched, error))) {
      function.emitRemark("left unchanged: ") << error;
      return success();
    }
    std::string tuningNote;
    if (useTuningDatabase) {
      FailureOr<bool> measured = takeMeasuredChoice(
          function, *reference, *options.chip, deadline, tuningNote);
      if (failed(measured))
        return failure();
      if (*measured)
        return success();
    }
    // The search has the time the function has left.
    if (seconds > 0 && deadline.secondsLeft() <= 0) {
      function.emitRemark("left unchanged: the time limit was spent before "
                          "its search")
          << tuningNote;
      return success();
    }
    search::BlockSearchOptions functionOptions = options;
    functionOptions.schedule =
        search::getScheduler(threads, *options.chip, function.getContext());
    // The candidates of the program without its maximum shifts are ranked,
    // and verified cheapest first, by the cost of their stabilised forms.
    if (plain)
      functionOptions.finalForm = search::stabilize;
    Found found;
    if (severalOutputs)
      searchOutputs(function, searched, functionOptions, deadline, seconds,
                    found);
    else if (failed(searchWhole(function, searched, functionOptions, deadline,
                                seconds, found)))
      return failure();
    if (plain)
      stabilizeCandidates(*maxChecker, functionOptions, deadline, found);
    std::vector<search::RankedProgram> variants =
        withTuningVariants(found.candidates, functionOptions);
    std::vector<Candidate> candidates;
    for (const search::RankedProgram &candidate : variants)
      candidates.push_back({&candidate, /*projected=*/false});
    for (const search::RankedProgram &candidate : found.prefixes)
      candidates.push_back({&candidate, /*projected=*/true});
    if (emitCandidates &&
        failed(emitCandidatesAfter(function, *reference, candidates,
                                   found.projection)))
      return failure();
    // The reference holds predefined ops only: nothing to schedule.
    search::CostEstimate before =
        search::estimateCost(*reference, *options.chip, search::ProgramFacts());
    std::string summary = found.summary + tuningNote;
    if (candidates.empty()) {
      function.emitRemark("left unchanged, no verified candidate: ") << summary;
      return success();
    }
    // Candidates come cheapest first: the best is the search's or the
    // prefix's.
    Candidate best = found.candidates.empty()
                         ? Candidate{&found.prefixes.front(), true}
                         : Candidate{&found.candidates.front(), false};
    if (!found.prefixes.empty() &&
        found.prefixes.front().cost < best.ranked->cost)
      best = {&found.prefixes.front(), /*projected=*/true};
    const search::CostEstimate &after = best.ranked->cost;
    if (!(after < before)) {
      function.emitRemark("left unchanged, no verified candidate is cheaper: ")
          << summary
          << llvm::formatv("; estimated {0:f1} us, best candidate {1:f1} us",
                           before.microseconds, after.microseconds);
      return success();
    }

    if (failed(replaceBody(function, best, found.projection)))
      return failure();
    function.emitRemark("superoptimized: ")
        << summary
        << llvm::formatv("; estimated {0:f1} -> {1:f1} us, global memory "
                         "traffic {2} -> {3} bytes",
                         before.microseconds, after.microseconds,
                         before.globalBytes, after.globalBytes);
    return success();
  }
};

} // namespace
