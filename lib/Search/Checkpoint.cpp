//===- Checkpoint.cpp - Resumable search state ----------------------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Search/Checkpoint.h"

#include "Mirage/Semantics/ProgramJSON.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Duration.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <chrono>
#include <mutex>

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
  return json::Object{{"configurations", s.configurations},
                      {"states", s.states},
                      {"pruned", s.pruned},
                      {"complete", s.complete},
                      {"checked", s.checked},
                      {"verified", s.verified},
                      {"oracle_queries", s.oracleQueries},
                      {"oracle_cache_hits", s.oracleCacheHits},
                      {"seconds", s.seconds},
                      {"first_seconds", s.firstSeconds},
                      {"best_seconds", s.bestSeconds},
                      {"ranges", s.ranges}};
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

/// The largest checkpoint file read: a few candidates per function are a
/// few kilobytes each.
constexpr uint64_t kMaxFileBytes = 64 << 20;
/// How long a writer waits for another to release the checkpoint's lock.
constexpr std::chrono::milliseconds kLockTimeout(30000);

/// `error` set to "checkpoint 'path' <why>"; returns failure.
LogicalResult fail(StringRef path, const Twine &why, std::string &error) {
  error = ("checkpoint '" + path + "' " + why).str();
  return failure();
}

/// The status of the file at `path`: nothing when there is none, failure
/// when it is not a regular file of at most kMaxFileBytes (a FIFO or a
/// device could block or never end).
FailureOr<std::optional<llvm::sys::fs::file_status>>
statCheckpoint(StringRef path, std::string &error) {
  llvm::sys::fs::file_status status;
  if (std::error_code code = llvm::sys::fs::status(path, status)) {
    if (code == std::errc::no_such_file_or_directory)
      return std::optional<llvm::sys::fs::file_status>();
    return fail(path, "cannot be read: " + code.message(), error);
  }
  if (status.type() != llvm::sys::fs::file_type::regular_file)
    return fail(path, "is not a regular file", error);
  if (status.getSize() > kMaxFileBytes)
    return fail(
        path, "is larger than the limit of " + Twine(kMaxFileBytes) + " bytes",
        error);
  return std::optional<llvm::sys::fs::file_status>(status);
}

/// The searches recorded in the file at `path` (none when it does not
/// exist), or an error.
FailureOr<json::Object> readSearches(StringRef path, std::string &error) {
  FailureOr<std::optional<llvm::sys::fs::file_status>> status =
      statCheckpoint(path, error);
  if (failed(status))
    return failure();
  if (!*status)
    return json::Object();
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!buffer)
    return fail(path, "cannot be read: " + buffer.getError().message(), error);
  if ((*buffer)->getBufferSize() > kMaxFileBytes)
    return fail(
        path, "is larger than the limit of " + Twine(kMaxFileBytes) + " bytes",
        error);
  llvm::Expected<json::Value> parsed = json::parse((*buffer)->getBuffer());
  if (!parsed)
    return fail(path, "is not JSON: " + llvm::toString(parsed.takeError()),
                error);
  json::Object *file = parsed->getAsObject();
  if (!file || file->getString("format") != kFormat)
    return fail(path, "is not a Mirage search checkpoint", error);
  if (file->getInteger("version") != kVersion)
    return fail(path,
                "has an unsupported version (expected " + Twine(kVersion) + ")",
                error);
  json::Object *searches = file->getObject("searches");
  if (!searches)
    return fail(path, "has no searches", error);
  if (file->getString("checksum") !=
      hashJSON(json::Value(json::Object(*searches))))
    return fail(path, "is damaged (checksum mismatch)", error);
  return std::move(*searches);
}

/// The advisory lock writers of the checkpoint at `path` hold: the file
/// `path`.lock, created on first use and left in place (removing it would
/// let two writers lock two different files). The file lock excludes other
/// processes only, so writers in this process also take a mutex.
class CheckpointLock {
public:
  /// Takes the lock, waiting at most kLockTimeout for another writer.
  LogicalResult acquire(StringRef path, std::string &error) {
    static std::mutex writers;
    inProcess = std::unique_lock<std::mutex>(writers);
    std::string lockPath = (path + ".lock").str();
    std::error_code code;
    stream.emplace(lockPath, code, llvm::sys::fs::OF_Append);
    if (code)
      return fail(path,
                  "cannot be locked: '" + lockPath + "': " + code.message(),
                  error);
    llvm::Expected<llvm::sys::fs::FileLocker> taken =
        stream->tryLockFor(kLockTimeout);
    if (!taken)
      return fail(path,
                  "is locked by another search ('" + lockPath +
                      "'): " + llvm::toString(taken.takeError()),
                  error);
    locker.emplace(std::move(*taken));
    return success();
  }

private:
  /// Declared in the order taken: released in reverse, the file lock before
  /// its file is closed.
  std::unique_lock<std::mutex> inProcess;
  std::optional<llvm::raw_fd_ostream> stream;
  std::optional<llvm::sys::fs::FileLocker> locker;
};

/// Creates a new file next to `path` (so that renaming it over `path` is
/// atomic) and opens `fd` on it.
LogicalResult createTemporary(StringRef path, int &fd,
                              SmallVectorImpl<char> &temporary,
                              std::string &error) {
  if (std::error_code code = llvm::sys::fs::createUniqueFile(
          path + ".tmp-%%%%%%%%", fd, temporary))
    return fail(path, "cannot be written: " + code.message(), error);
  return success();
}

} // namespace

std::string search::fingerprintSearch(const sem::Program &reference,
                                      const BlockSearchOptions &o) {
  // The ranges are recorded one by one, so a search may resume with more.
  json::Value options = json::Array{o.maxOps,
                                    o.maxAccumulators,
                                    json::Array(o.gridSizes),
                                    o.largestGridSize,
                                    o.maxBlocks,
                                    o.maxComplete,
                                    o.maxCandidates,
                                    o.oracleTimeoutMs,
                                    o.pruneUnknown,
                                    o.splitKernels,
                                    o.linearSplits,
                                    o.singleKernels,
                                    o.clusters,
                                    static_cast<int64_t>(o.seed),
                                    o.maxSplitOutputs,
                                    json::Array(o.omap),
                                    json::Array(o.imaps),
                                    json::Array(o.fmaps),
                                    o.chip->name};
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

LogicalResult search::checkCheckpointWritable(StringRef path,
                                              std::string &error) {
  CheckpointLock lock;
  if (failed(statCheckpoint(path, error)) || failed(lock.acquire(path, error)))
    return failure();
  int fd;
  SmallString<128> temporary;
  if (failed(createTemporary(path, fd, temporary, error)))
    return failure();
  llvm::sys::fs::closeFile(fd);
  llvm::sys::fs::remove(temporary);
  return success();
}

LogicalResult search::writeCheckpoint(StringRef path, StringRef key,
                                      const CheckpointEntry &entry,
                                      std::string &error) {
  // Read, update and replace under the lock, so that concurrent searches
  // keep each other's entries.
  CheckpointLock lock;
  if (failed(lock.acquire(path, error)))
    return failure();
  FailureOr<json::Object> searches = readSearches(path, error);
  if (failed(searches))
    return failure();
  (*searches)[key] = toJSON(entry);
  json::Value contents(std::move(*searches));
  json::Object file{{"format", kFormat},
                    {"version", kVersion},
                    {"checksum", hashJSON(contents)},
                    {"searches", std::move(contents)}};
  int fd;
  SmallString<128> temporary;
  if (failed(createTemporary(path, fd, temporary, error)))
    return failure();
  std::error_code code;
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << llvm::formatv("{0:2}", json::Value(std::move(file))) << "\n";
    os.close();
    // A full disk is the user's problem to report, not a fatal error.
    code = os.error();
    os.clear_error();
  }
  if (!code)
    code = llvm::sys::fs::rename(temporary, path);
  if (code) {
    llvm::sys::fs::remove(temporary);
    return fail(path, "cannot be written: " + code.message(), error);
  }
  return success();
}
