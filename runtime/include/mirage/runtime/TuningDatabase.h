//===- TuningDatabase.h - Measured winners per program and device -*- C++ -*-=//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// mirage-tune times a program as written against the search's candidates
// on a GPU and records the fastest correct one in a JSON file, the tuning
// database (docs/Runtime.md, "Tuning"), which the compiler reads to choose
// without a GPU. Writers lock the file and replace it atomically, so
// concurrent tuners all land and readers never see half a file; a file that
// cannot be read as a database is never overwritten. No driver calls.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_RUNTIME_TUNINGDATABASE_H
#define MIRAGE_RUNTIME_TUNINGDATABASE_H

#include "mirage/runtime/Error.h"

#include <cstdint>
#include <ctime>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mirage::runtime {

/// What became of one function of a tuning group.
enum class MeasurementStatus {
  /// It ran, computed what the program as written computes, and was timed.
  Ok,
  /// Its outputs differ from those of the program as written.
  Wrong,
  /// It could not be run or timed.
  Failed,
};

/// The database's spelling of `status`: "ok", "wrong" or "failed".
std::string_view measurementStatusName(MeasurementStatus status);

/// The code generator a function was measured under: the bundle's PTX,
/// or the Triton module of the same µGraph (mirage-translate
/// --mirage-to-triton), which the tuner cannot run itself and takes as
/// measured by its caller (docs/Runtime.md, "Triton measurements").
enum class TuningBackend {
  Ptx,
  Triton,
};

/// The database's spelling of `backend`: "ptx" or "triton".
std::string_view tuningBackendName(TuningBackend backend);

/// One function of a tuning group, as measured.
struct TuningMeasurement {
  std::string function;
  /// -1 for the program as written, else the candidate number.
  int64_t candidate = -1;
  MeasurementStatus status = MeasurementStatus::Ok;
  /// The function's time in microseconds, the lower of coldUs and warmUs
  /// (the kernel benchmark's rule); set exactly when Ok.
  std::optional<double> medianUs;
  /// The maximum relative error against the program as written; unset when
  /// it was not computed or is not finite (then `message` says why).
  std::optional<double> maxRelativeError;
  /// Why the function is wrong or failed; may be empty when Ok.
  std::string message;
  /// The median time of one run with the L2 cache flushed before it, and
  /// of one call among back-to-back calls (inputs left in L2), in
  /// microseconds; set when Ok in a version 2 database, unset in version 1.
  std::optional<double> coldUs, warmUs;
  /// Which form of the function ran; written as "backend" only when not
  /// PTX (version 3).
  TuningBackend backend = TuningBackend::Ptx;
  /// Whether the times are with programmatic dependent launch (its kernels
  /// launched to overlap the one before, docs/CodeGeneration.md); false
  /// when the tuner timed the function faster without it. Written as
  /// "overlap": false only then (version 4).
  bool overlap = true;
};

/// The fastest correct function of a tuning group.
struct TuningWinner {
  std::string function;
  /// -1: keep the program as written.
  int64_t candidate = -1;
  double medianUs = 0;
  /// The winner's plan.json "program" as compact JSON text, copied
  /// verbatim; empty when the function had none.
  std::string program;
  /// The form that was fastest: the choice is the function and its backend.
  TuningBackend backend = TuningBackend::Ptx;
  /// Whether it runs with programmatic dependent launch: its measurement's
  /// `overlap`, part of the choice (version 4).
  bool overlap = true;
};

/// The device a group was tuned on.
struct TuningDevice {
  /// As the driver names it, e.g. "NVIDIA H100 80GB HBM3".
  std::string name;
  int major = 0;
  int minor = 0;
};

/// The outcome of tuning one group on one device. Its identity is (key,
/// compiler, device name, compute capability): the database holds at most
/// one entry per identity.
struct TuningEntry {
  /// The group's tuning key (64 lowercase hex digits).
  std::string key;
  std::string compiler;
  TuningDevice device;
  /// The chip whose PTX ran ("sm_90a").
  std::string chip;
  /// When it was measured, in UTC: "2026-11-25T10:00:00Z" (utcDate).
  std::string date;
  TuningWinner winner;
  /// The fastest correct PTX form, set exactly when the winner is another
  /// backend's: what a bundle, which holds PTX, takes.
  std::optional<TuningWinner> ptxWinner;
  /// Every function of the group: the program as written first, then the
  /// candidates by number.
  std::vector<TuningMeasurement> measurements;

  /// Whether `other` has the same identity.
  bool sameIdentity(const TuningEntry &other) const;
};

/// The largest database file the runtime reads or writes: 64 MiB.
inline constexpr int64_t maxTuningDatabaseBytes = int64_t(64) << 20;

/// Parses the text of a database file (format "mirage-tuning", versions 1
/// to 4).
/// Failures are TuningDatabase errors naming the field, e.g.
/// "entries[0].winner.median_us: expected a number >= 0", or the line and
/// column of a JSON syntax error.
Expected<std::vector<TuningEntry>> parseTuningDatabase(std::string_view text);

/// Parses a JSON array of measurements in the database's form (version 4,
/// so "backend" and "overlap" may be given), as a tuner's caller passes the
/// measurements it made itself. Failures are InvalidArgument errors naming the
/// field, e.g. "measurements[1].status: unknown status ...".
Expected<std::vector<TuningMeasurement>>
parseTuningMeasurements(std::string_view text);

/// The text of a database file holding `entries`: indented JSON, ending
/// with a newline.
std::string formatTuningDatabase(const std::vector<TuningEntry> &entries);

/// One line summarising `entry`: its key's first 16 digits, the device, the
/// chip, the compiler, the winner and its median time.
std::string summarizeTuningEntry(const TuningEntry &entry);

/// `time` in UTC as the database writes dates: "2026-11-25T10:00:00Z".
std::string utcDate(std::time_t time);

/// Where the database lives unless a caller names a file:
/// $MIRAGE_TUNING_DB if set and not empty, else
/// $XDG_CACHE_HOME/mirage/tuning.json if that variable holds an absolute
/// path, else $HOME/.cache/mirage/tuning.json. Fails when none is set.
Expected<std::string> defaultTuningDatabasePath();

/// What TuningDatabase::clear removed.
struct ClearResult {
  /// Entries removed.
  size_t removed = 0;
  /// Set when, clearing every entry, the file could not be read as a
  /// database and was replaced by an empty one; the message says why.
  std::string replacedUnreadable;
};

/// The database file at a path. Reading takes no lock (a writer replaces
/// the file by rename, so a reader sees the old or the new file whole).
/// Writing (record, clear) holds an exclusive flock on `path`.lock for the
/// read-modify-write, writes a temporary file next to the database, syncs
/// it and renames it over the database; on any failure the database is
/// left as it was and the temporary is removed. A missing file is an empty
/// database. A file that is not a regular file, is larger than
/// maxTuningDatabaseBytes, or does not parse (truncated, another format, a
/// newer version) is refused with a TuningDatabase error naming the path
/// and the problem, and is never overwritten (except by clearing it whole).
class TuningDatabase {
public:
  explicit TuningDatabase(std::string path) : databasePath(std::move(path)) {}

  const std::string &path() const { return databasePath; }

  /// Every entry, in the file's order.
  Expected<std::vector<TuningEntry>> entries() const;

  /// The entries for the group `key` compiled by `compiler`, measured on
  /// devices of compute capability `major`.`minor` (any device name).
  Expected<std::vector<TuningEntry>> lookup(std::string_view key,
                                            std::string_view compiler,
                                            int major, int minor) const;

  /// Stores `entry`, replacing the entry of the same identity and keeping
  /// all others. Creates the file and its directory when missing.
  Error record(const TuningEntry &entry) const;

  /// Removes the entries whose key starts with `keyPrefix`; every entry
  /// when it is empty, in which case a regular file that cannot be read as
  /// a database is replaced by an empty database too. A missing file stays
  /// missing.
  Expected<ClearResult> clear(std::string_view keyPrefix = "") const;

private:
  std::string databasePath;
};

} // namespace mirage::runtime

#endif // MIRAGE_RUNTIME_TUNINGDATABASE_H
