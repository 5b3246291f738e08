//===- MeasuredChoice.cpp - Winners from the tuning database --------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Transforms/MeasuredChoice.h"

#include "Mirage/Semantics/ProgramJSON.h"
#include "Mirage/Support/Tuning.h"
#include "Mirage/Support/Version.h"
#include "mirage/runtime/TuningDatabase.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/JSON.h"

using namespace mlir;
using namespace mlir::mirage;

FailureOr<std::string>
mlir::mirage::resolveTuningDatabasePath(StringRef path, std::string &error) {
  if (!path.empty())
    return path.str();
  ::mirage::runtime::Expected<std::string> located =
      ::mirage::runtime::defaultTuningDatabasePath();
  if (!located) {
    error = located.error().message();
    return failure();
  }
  return std::move(*located);
}

FailureOr<std::optional<MeasuredChoice>>
mlir::mirage::lookupMeasuredChoice(StringRef path, StringRef key,
                                   const Chip &chip, bool acceptTriton,
                                   std::string &error) {
  ::mirage::runtime::TuningDatabase database(path.str());
  ::mirage::runtime::Expected<std::vector<::mirage::runtime::TuningEntry>>
      entries = database.lookup(key.str(), getCompilerVersion().str(),
                                chip.computeMajor, chip.computeMinor);
  if (!entries) {
    error = entries.error().message();
    return failure();
  }
  if (entries->empty())
    return std::optional<MeasuredChoice>();
  // Dates are UTC in one fixed format: they order as strings.
  const ::mirage::runtime::TuningEntry &newest = *llvm::max_element(
      *entries, [](const auto &a, const auto &b) { return a.date < b.date; });
  // The reader ensures a PTX winner beside any other.
  const ::mirage::runtime::TuningWinner &winner =
      acceptTriton || !newest.ptxWinner ? newest.winner : *newest.ptxWinner;
  MeasuredChoice choice;
  choice.device = newest.device.name;
  choice.date = newest.date;
  choice.candidate = winner.candidate;
  choice.medianUs = winner.medianUs;
  choice.triton = winner.backend == ::mirage::runtime::TuningBackend::Triton;
  choice.overlap = winner.overlap;
  if (choice.candidate == kAsWrittenCandidate)
    return std::optional<MeasuredChoice>(std::move(choice));

  auto fail = [&](const Twine &why) {
    error = ("tuning database '" + path + "': the winner of key " +
             key.take_front(16) + "... measured on " + newest.device.name +
             " " + why)
                .str();
    return failure();
  };
  if (winner.program.empty())
    return fail("records no program");
  llvm::Expected<llvm::json::Value> json = llvm::json::parse(winner.program);
  if (!json)
    return fail("is not JSON: " + llvm::toString(json.takeError()));
  sem::Program program;
  llvm::json::Path::Root root("program");
  if (!sem::fromJSON(*json, program, root))
    return fail("is not a program: " + llvm::toString(root.getError()));
  choice.program = std::move(program);
  return std::optional<MeasuredChoice>(std::move(choice));
}
