//===- Limits.cpp - Resource limits of evaluation -------------------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Semantics/Limits.h"

#include "Mirage/Dialect/Common/ShapeRules.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <iterator>
#include <limits>

using namespace mlir;
using namespace mlir::mirage::sem;

namespace {

/// The largest size the options take: sizes in bytes of 16-byte values
/// stay below 2^64.
constexpr int64_t kMaxSizeOption = int64_t(1) << 62;

/// The elements of `shape`, saturating at the largest uint64_t.
uint64_t countElements(ArrayRef<int64_t> shape) {
  uint64_t count = 1;
  for (int64_t extent : shape)
    count = llvm::SaturatingMultiply(
        count, static_cast<uint64_t>(std::max<int64_t>(extent, 0)));
  return count;
}

/// `n` as `2^k` when it is a power of two of at least 2^10, else in decimal.
std::string formatCount(uint64_t n) {
  if (n == std::numeric_limits<uint64_t>::max())
    return "2^64 or more";
  if (n >= 1024 && llvm::isPowerOf2_64(n))
    return "2^" + std::to_string(llvm::Log2_64(n));
  return std::to_string(n);
}

/// `bytes` as formatCount writes it, with its size in binary units from
/// KiB up.
std::string formatBytes(uint64_t bytes) {
  std::string text = formatCount(bytes) + " bytes";
  if (bytes < 1024 || bytes == std::numeric_limits<uint64_t>::max())
    return text;
  static constexpr const char *kUnits[] = {"KiB", "MiB", "GiB",
                                           "TiB", "PiB", "EiB"};
  double size = static_cast<double>(bytes) / 1024;
  size_t unit = 0;
  for (; size >= 1024 && unit + 1 < std::size(kUnits); ++unit)
    size /= 1024;
  return text + llvm::formatv(" ({0:f1} {1})", size, kUnits[unit]).str();
}

/// Seconds as an option would be written (`0.5`, `600`, `nan`).
std::string formatSeconds(double seconds) {
  std::string text;
  llvm::raw_string_ostream(text) << llvm::format("%g", seconds);
  return text;
}

/// The suffix naming `option` when the limits come from options.
std::string optionSuffix(const EvaluationLimits &limits, StringRef option) {
  return limits.namesOptions ? (" (option " + option + ")").str() : "";
}

/// The type of a value as the IR writes it: a kernel-level tensor or a tile.
std::string formatType(const ValueType &type, bool tile) {
  return llvm::formatv(
      "{0}<{1}x{2}>", tile ? "!mirage_block.stensor" : "tensor",
      mirage::formatShape(type.shape), getElementTypeName(type.elementType));
}

/// Checks one value against the element limit; adds its elements to `held`.
LogicalResult checkValue(const ValueType &type, bool tile,
                         const EvaluationLimits &limits, uint64_t &held,
                         std::string &error) {
  uint64_t elements = countElements(type.shape);
  if (elements > static_cast<uint64_t>(limits.maxElements)) {
    error = llvm::formatv("{0} has {1} elements; evaluation is limited to {2} "
                          "elements per tensor{3}",
                          formatType(type, tile), formatCount(elements),
                          formatCount(limits.maxElements),
                          optionSuffix(limits, "max-elements"));
    return failure();
  }
  held = llvm::SaturatingAdd(held, elements);
  return success();
}

/// Checks the tiles of graph_def body `body`; sets `held` to the elements
/// the blocks of one cluster hold at once (their tiles, their accumulators
/// and one thread graph's tiles).
LogicalResult checkBody(const Program &program, const Graph &body,
                        const EvaluationLimits &limits, uint64_t &held,
                        std::string &error) {
  // Body inputs are kernel tensors; output_saver results are written into
  // the kernel tensors, not held per block.
  SmallVector<bool> isTile(body.values.size(), true);
  for (int32_t value : body.inputs)
    isTile[value] = false;
  uint64_t perBlock = 0, threadGraph = 0;
  for (const Node &node : body.nodes) {
    if (node.kind == OpKind::OutputSaver)
      isTile[node.results[0]] = false;
    // Every scalar of a thread graph's body becomes a tile of its result's
    // shape, and one more holds zeros.
    if (node.kind == OpKind::ThreadGraph) {
      uint64_t tile = countElements(body.values[node.results[0]].shape);
      uint64_t scalars = program.graphs[node.body].values.size() + 1;
      threadGraph =
          std::max(threadGraph, llvm::SaturatingMultiply(tile, scalars));
    }
    // An accumulator's state, besides its result.
    if (node.kind == OpKind::ForloopAccum)
      perBlock = llvm::SaturatingAdd(
          perBlock, countElements(body.values[node.results[0]].shape));
  }
  for (auto [value, type] : llvm::enumerate(body.values))
    if (isTile[value] &&
        failed(checkValue(type, /*tile=*/true, limits, perBlock, error)))
      return failure();
  held = llvm::SaturatingAdd(
      llvm::SaturatingMultiply(perBlock,
                               static_cast<uint64_t>(body.getClusterSize())),
      threadGraph);
  return success();
}

} // namespace

FailureOr<EvaluationLimits>
mlir::mirage::sem::getLimitsFromOptions(int64_t maxElements, int64_t maxBytes,
                                        double timeLimitSeconds,
                                        std::string &error) {
  auto checkSize = [&](StringRef option, int64_t value) {
    if (value >= 1 && value <= kMaxSizeOption)
      return true;
    error = llvm::formatv("{0} must be in [1, 2^62], got {1}", option, value);
    return false;
  };
  if (!checkSize("max-elements", maxElements) ||
      !checkSize("max-memory", maxBytes))
    return failure();
  // NaN lies in no range.
  if (!(timeLimitSeconds >= 0 && timeLimitSeconds <= kMaxTimeLimitSeconds)) {
    error = "time-limit must be in [0, 1e+07] seconds, got " +
            formatSeconds(timeLimitSeconds);
    return failure();
  }
  EvaluationLimits limits;
  limits.maxElements = maxElements;
  limits.maxBytes = maxBytes;
  limits.timeLimitSeconds = timeLimitSeconds;
  limits.namesOptions = true;
  return limits;
}

LogicalResult mlir::mirage::sem::checkEvaluationLimits(
    const Program &program, size_t valueBytes, const EvaluationLimits &limits,
    std::string &error) {
  const Graph &kernel = program.getKernelGraph();
  // Every kernel value is kept to the end; the outputs are copied out.
  uint64_t held = 0;
  for (const ValueType &type : kernel.values)
    if (failed(checkValue(type, /*tile=*/false, limits, held, error)))
      return failure();
  for (int32_t value : kernel.outputs)
    held = llvm::SaturatingAdd(held, countElements(kernel.values[value].shape));
  // One graph_def runs at a time.
  uint64_t blocks = 0;
  for (const Node &node : kernel.nodes) {
    if (node.kind != OpKind::GraphDef)
      continue;
    uint64_t body;
    if (failed(
            checkBody(program, program.graphs[node.body], limits, body, error)))
      return failure();
    blocks = std::max(blocks, body);
  }
  uint64_t bytes = llvm::SaturatingMultiply(llvm::SaturatingAdd(held, blocks),
                                            static_cast<uint64_t>(valueBytes));
  if (bytes > static_cast<uint64_t>(limits.maxBytes)) {
    error = llvm::formatv("its values take {0} at once; evaluation is "
                          "limited to {1}{2}",
                          formatBytes(bytes), formatBytes(limits.maxBytes),
                          optionSuffix(limits, "max-memory"));
    return failure();
  }
  return success();
}

Deadline::Deadline(double seconds) {
  // Past about 30 years the clock's nanoseconds would overflow: such a
  // deadline (infinity included) never passes.
  constexpr double kNever = 1e9;
  if (!(seconds < kNever))
    return;
  this->seconds = seconds;
  end = std::chrono::steady_clock::now() +
        std::chrono::duration_cast<std::chrono::steady_clock::duration>(
            std::chrono::duration<double>(seconds));
}

double Deadline::secondsLeft() const {
  if (seconds <= 0)
    return std::numeric_limits<double>::infinity();
  return std::chrono::duration<double>(end - std::chrono::steady_clock::now())
      .count();
}

std::string Deadline::describe(const EvaluationLimits &limits) const {
  return llvm::formatv("the evaluation did not finish within the time limit "
                       "of {0} s{1}",
                       formatSeconds(seconds),
                       optionSuffix(limits, "time-limit"));
}
