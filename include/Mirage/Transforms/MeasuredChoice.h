//===- MeasuredChoice.h - Winners from the tuning database ------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// `mirage-tune` measures a tuning group on a GPU and records its fastest
// correct function in the tuning database (docs/Runtime.md, "Tuning").
// `mirage-superoptimize` reads that record back, with no GPU present: a
// program whose key, compiler version and chip have an entry takes the
// measured winner instead of the cost model's choice. The database's format
// has one home, the runtime's reader (mirage/runtime/TuningDatabase.h), which
// the compiler links.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_TRANSFORMS_MEASUREDCHOICE_H
#define MIRAGE_TRANSFORMS_MEASUREDCHOICE_H

#include "Mirage/Semantics/Program.h"
#include "Mirage/Support/Chip.h"
#include "mlir/Support/LLVM.h"

#include <optional>
#include <string>

namespace mlir::mirage {

/// What the tuning database records for one program on one chip.
struct MeasuredChoice {
  /// The device it was measured on, as the driver names it.
  std::string device;
  /// When it was measured ("2026-11-25T10:00:00Z").
  std::string date;
  /// The winner's candidate number in its tuning group; -1
  /// (kAsWrittenCandidate) when the program as written was fastest.
  int64_t candidate = -1;
  /// The winner's median time, in microseconds.
  double medianUs = 0;
  /// Whether the winner's time is that of its Triton form
  /// (mirage-translate --mirage-to-triton) rather than its PTX.
  bool triton = false;
  /// Whether the winner was timed with programmatic dependent launch, as
  /// it then runs (false: measured faster without).
  bool overlap = true;
  /// The winner's program; set exactly when `candidate` is not -1.
  std::optional<sem::Program> program;
};

/// The database file `path` names, or the default location when it is
/// empty ($MIRAGE_TUNING_DB, else $XDG_CACHE_HOME/mirage/tuning.json, else
/// $HOME/.cache/mirage/tuning.json). Fails with `error` when neither gives
/// a path.
FailureOr<std::string> resolveTuningDatabasePath(StringRef path,
                                                 std::string &error);

/// The newest entry of the database at `path` for the program of key `key`
/// compiled by this compiler version and measured on a GPU of `chip`'s
/// compute capability; nothing when there is none (a missing file holds
/// none). Its winner, or, unless `acceptTriton`, the fastest PTX form when
/// a Triton form won. Fails with `error`, naming the file and the field,
/// when the file cannot be read as a database or the winner is not a
/// program.
FailureOr<std::optional<MeasuredChoice>>
lookupMeasuredChoice(StringRef path, StringRef key, const Chip &chip,
                     bool acceptTriton, std::string &error);

} // namespace mlir::mirage

#endif // MIRAGE_TRANSFORMS_MEASUREDCHOICE_H
