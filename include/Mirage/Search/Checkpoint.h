//===- Checkpoint.h - Resumable search state --------------------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The checkpoint file of mirage-superoptimize (docs/Search.md): for each
// search (a function), a fingerprint of the reference and the options, the
// for-loop ranges explored, the statistics so far and the verified
// candidates kept. The file carries a checksum of its contents; a file that
// is not a regular file, is too large, does not parse, fails the checksum or
// holds an invalid program is an error. Writers replace the file atomically
// (a unique temporary file renamed over it) under an advisory lock
// (`FILE.lock`). Since anyone can recompute the checksum, the search
// verifies the candidates it reads again (BlockGraphSearch.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SEARCH_CHECKPOINT_H
#define MIRAGE_SEARCH_CHECKPOINT_H

#include "Mirage/Search/BlockGraphSearch.h"

#include <optional>

namespace mlir::mirage::search {

/// What one search has done.
struct CheckpointEntry {
  /// Identifies the reference and the options the search ran with.
  std::string fingerprint;
  std::vector<int64_t> rangesDone;
  BlockSearchStatistics statistics;
  /// The verified candidates kept, cheapest first.
  std::vector<sem::Program> candidates;
};

/// The fingerprint of a search of `reference` with `options`: a hash of
/// both, of the options that change what a for-loop range finds only (not
/// the ranges, threads, time limit or progress).
std::string fingerprintSearch(const sem::Program &reference,
                              const BlockSearchOptions &options);

/// Reads `key`'s entry from the checkpoint file at `path`: nothing when the
/// file or the entry does not exist; fails with `error` when the file is
/// damaged.
FailureOr<std::optional<CheckpointEntry>>
readCheckpoint(StringRef path, StringRef key, std::string &error);

/// Fails, with `error`, when the checkpoint file at `path` could not be
/// written: it is not a regular file, its lock cannot be taken or its
/// directory does not take new files. Creates nothing but the lock file.
LogicalResult checkCheckpointWritable(StringRef path, std::string &error);

/// Writes `entry` as `key`'s entry of the checkpoint file at `path`, keeping
/// the other entries: under the lock, the file is read and replaced whole by
/// renaming a unique temporary file over it, so a failure (a full disk)
/// leaves the previous file intact.
LogicalResult writeCheckpoint(StringRef path, StringRef key,
                              const CheckpointEntry &entry, std::string &error);

} // namespace mlir::mirage::search

#endif // MIRAGE_SEARCH_CHECKPOINT_H
