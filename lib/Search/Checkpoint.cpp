//===- Checkpoint.cpp - Resumable search state ----------------------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Search/Checkpoint.h"

#include "Mirage/Semantics/ProgramJSON.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/xxhash.h"

using namespace mlir;
using namespace mlir::mirage;
using namespace mlir::mirage::search;
namespace json = llvm::json;

namespace {

constexpr llvm::StringLiteral kFormat = "mirage-search-checkpoint";
constexpr int64_t kVersion = 2;

/// A hash of `value` as printed (objects print their keys sorted).
std::string hashJSON(const json::Value &value) {
  std::string text = llvm::formatv("{0}", value).str();
  return llvm::utohexstr(llvm::xxh3_64bits(text), /*LowerCase=*/true, 16);
}

} // namespace

// The readers are found by argument-dependent lookup from json::ObjectMapper,
// so they live in the namespace of the types they read.
namespace mlir::mirage::search {

json::Value toJSON(const BlockSearchStatistics &s) {
  return json::Object{
      {"configurations", s.configurations}, {"states", s.states},
      {"pruned", s.pruned},                 {"complete", s.complete},
      {"checked", s.checked},               {"verified", s.verified},
      {"oracle_queries", s.oracleQueries},  {"oracle_cache_hits", s.oracleCacheHits},
      {"seconds", s.seconds},               {"first_seconds", s.firstSeconds},
      {"best_seconds", s.bestSeconds},      {"ranges", s.ranges}};
}

bool fromJSON(const json::Value &value, BlockSearchStatistics &s,
              json::Path path) {
  json::ObjectMapper m(value, path);
  return m && m.map("configurations", s.configurations) &&
         m.map("states", s.states) && m.map("pruned", s.pruned) &&
         m.map("complete", s.complete) && m.map("checked", s.checked) &&
         m.map("verified", s.verified) &&
         m.map("oracle_queries", s.oracleQueries) &&
         m.map("oracle_cache_hits", s.oracleCacheHits) &&
         m.map("seconds", s.seconds) &&
         m.map("first_seconds", s.firstSeconds) &&
         m.map("best_seconds", s.bestSeconds) && m.map("ranges", s.ranges);
}

json::Value toJSON(const CheckpointEntry &entry) {
  json::Array candidates;
  for (const sem::Program &program : entry.candidates)
    candidates.push_back(sem::toJSON(program));
  return json::Object{{"fingerprint", entry.fingerprint},
                      {"ranges_done", json::Array(entry.rangesDone)},
                      {"statistics", toJSON(entry.statistics)},
                      {"candidates", std::move(candidates)}};
}

bool fromJSON(const json::Value &value, CheckpointEntry &entry,
              json::Path path) {
  json::ObjectMapper m(value, path);
  return m && m.map("fingerprint", entry.fingerprint) &&
         m.map("ranges_done", entry.rangesDone) &&
         m.map("statistics", entry.statistics) &&
         m.map("candidates", entry.candidates);
}

} // namespace mlir::mirage::search

namespace {

/// The searches recorded in the file at `path` (none when it does not
/// exist), or an error.
FailureOr<json::Object> readSearches(StringRef path, std::string &error) {
  if (!llvm::sys::fs::exists(path))
    return json::Object();
  auto fail = [&](const Twine &why) {
    error = ("checkpoint '" + path + "' " + why).str();
    return failure();
  };
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return fail("cannot be read: " + buffer.getError().message());
  llvm::Expected<json::Value> parsed = json::parse((*buffer)->getBuffer());
  if (!parsed)
    return fail("is not JSON: " + llvm::toString(parsed.takeError()));
  json::Object *file = parsed->getAsObject();
  if (!file || file->getString("format") != kFormat)
    return fail("is not a Mirage search checkpoint");
  if (file->getInteger("version") != kVersion)
    return fail("has an unsupported version (expected " + Twine(kVersion) +
                ")");
  json::Object *searches = file->getObject("searches");
  if (!searches)
    return fail("has no searches");
  if (file->getString("checksum") != hashJSON(json::Value(json::Object(*searches))))
    return fail("is damaged (checksum mismatch)");
  return std::move(*searches);
}

} // namespace

std::string search::fingerprintSearch(const sem::Program &reference,
                                      const BlockSearchOptions &o) {
  // The ranges are recorded one by one, so a search may resume with more.
  json::Value options = json::Array{
      o.maxOps,         json::Array(o.gridSizes), o.maxBlocks,
      o.maxComplete,    o.maxCandidates,
      o.oracleTimeoutMs, o.pruneUnknown,
      o.splitKernels,   o.singleKernels,
      static_cast<int64_t>(o.seed), o.maxSplitOutputs,
      json::Array(o.omap), json::Array(o.imaps),
      json::Array(o.fmaps), o.chip->name};
  return hashJSON(json::Array{sem::toJSON(reference), std::move(options)});
}

FailureOr<std::optional<CheckpointEntry>>
search::readCheckpoint(StringRef path, StringRef key, std::string &error) {
  FailureOr<json::Object> searches = readSearches(path, error);
  if (failed(searches))
    return failure();
  const json::Value *value = searches->get(key);
  if (!value)
    return std::optional<CheckpointEntry>();
  CheckpointEntry entry;
  json::Path::Root root("entry");
  if (!fromJSON(*value, entry, root)) {
    error = ("checkpoint '" + path + "' has an invalid entry for '" + key +
             "': " + llvm::toString(root.getError()))
                .str();
    return failure();
  }
  return std::optional<CheckpointEntry>(std::move(entry));
}

LogicalResult search::writeCheckpoint(StringRef path, StringRef key,
                                      const CheckpointEntry &entry,
                                      std::string &error) {
  FailureOr<json::Object> searches = readSearches(path, error);
  if (failed(searches))
    return failure();
  (*searches)[key] = toJSON(entry);
  json::Value contents(std::move(*searches));
  json::Object file{{"format", kFormat},
                    {"version", kVersion},
                    {"checksum", hashJSON(contents)},
                    {"searches", std::move(contents)}};
  std::string temporary = (path + ".tmp").str();
  {
    std::error_code code;
    llvm::raw_fd_ostream os(temporary, code);
    if (code) {
      error = ("cannot write checkpoint '" + Twine(temporary) + "': " +
               code.message())
                  .str();
      return failure();
    }
    os << llvm::formatv("{0:2}", json::Value(std::move(file))) << "\n";
  }
  if (std::error_code code = llvm::sys::fs::rename(temporary, path)) {
    error = ("cannot write checkpoint '" + path + "': " + code.message()).str();
    return failure();
  }
  return success();
}
