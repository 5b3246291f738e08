//===- mirage-tune.cpp - Measured selection of compiled candidates --------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// mirage-tune BUNDLE [--db PATH] [--device N] [--runs N] [--warmup N]
//             [--rtol X] [--input-scale X] [--seed S] [--json OUT]
// mirage-tune --list [--db PATH]
// mirage-tune --clear [--key PREFIX] [--db PATH]
//
// Times every tuning group of a bundle (a program as written and the
// search's candidates) on a GPU, prints a table per group, and records the
// fastest correct function in the tuning database; or lists or clears the
// database (docs/Runtime.md, "Tuning"). Exit status: 0 ok, 1 errors, 2 bad
// usage.
//
//===----------------------------------------------------------------------===//

#include "mirage/runtime/Tuner.h"
#include "mirage/runtime/TuningResults.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

using namespace mirage::runtime;

namespace {

enum class Mode { Tune, List, Clear };

struct Options {
  Mode mode = Mode::Tune;
  std::string bundle;
  /// Empty: defaultTuningDatabasePath().
  std::string database;
  std::string keyPrefix;
  std::string json;
  int device = 0;
  TuneOptions tune;
  /// Options that only tuning takes, as given, for a usage error.
  std::vector<std::string> tuningOnly;
};

const char *const usageText =
    "usage: mirage-tune BUNDLE [--db PATH] [--device N] [--runs N] "
    "[--warmup N] [--rtol X] [--input-scale X] [--seed S] [--json OUT]\n"
    "       mirage-tune --list [--db PATH]\n"
    "       mirage-tune --clear [--key PREFIX] [--db PATH]\n";

Error usage(const std::string &message) {
  return Error(ErrorCode::InvalidArgument, message);
}

bool parseInteger(const char *text, long long minimum, long long maximum,
                  long long &value) {
  char *end = nullptr;
  errno = 0;
  long long parsed = std::strtoll(text, &end, 10);
  if (!*text || *end || errno || parsed < minimum || parsed > maximum)
    return false;
  value = parsed;
  return true;
}

bool isHexPrefix(const std::string &text) {
  return !text.empty() && text.size() <= 64 &&
         text.find_first_not_of("0123456789abcdef") == std::string::npos;
}

Expected<Options> parseOptions(int argc, char **argv) {
  Options options;
  bool list = false, clear = false;
  for (int i = 1; i < argc; ++i) {
    std::string argument = argv[i];
    bool hasValue = i + 1 < argc;
    long long number = 0;
    if (argument == "--list") {
      list = true;
    } else if (argument == "--clear") {
      clear = true;
    } else if (argument == "--db" && hasValue) {
      options.database = argv[++i];
      if (options.database.empty())
        return usage("--db: expected a path");
    } else if (argument == "--key" && hasValue) {
      options.keyPrefix = argv[++i];
      if (!isHexPrefix(options.keyPrefix))
        return usage("--key: expected 1 to 64 lowercase hex digits");
    } else if (argument == "--json" && hasValue) {
      options.json = argv[++i];
      options.tuningOnly.push_back(argument);
    } else if (argument == "--device" && hasValue) {
      if (!parseInteger(argv[++i], 0, 1023, number))
        return usage("--device: expected a device ordinal");
      options.device = static_cast<int>(number);
      options.tuningOnly.push_back(argument);
    } else if (argument == "--runs" && hasValue) {
      if (!parseInteger(argv[++i], 1, 1000000, number))
        return usage("--runs: expected a positive integer");
      options.tune.runs = static_cast<int>(number);
      options.tuningOnly.push_back(argument);
    } else if (argument == "--warmup" && hasValue) {
      if (!parseInteger(argv[++i], 0, 1000000, number))
        return usage("--warmup: expected a non-negative integer");
      options.tune.warmup = static_cast<int>(number);
      options.tuningOnly.push_back(argument);
    } else if (argument == "--rtol" && hasValue) {
      char *end = nullptr;
      const char *text = argv[++i];
      options.tune.rtol = std::strtod(text, &end);
      if (!*text || *end || !std::isfinite(options.tune.rtol) ||
          options.tune.rtol <= 0)
        return usage("--rtol: expected a positive number");
      options.tuningOnly.push_back(argument);
    } else if (argument == "--input-scale" && hasValue) {
      char *end = nullptr;
      const char *text = argv[++i];
      options.tune.inputScale = std::strtod(text, &end);
      if (!*text || *end || !std::isfinite(options.tune.inputScale) ||
          options.tune.inputScale <= 0)
        return usage("--input-scale: expected a positive number");
      options.tuningOnly.push_back(argument);
    } else if (argument == "--seed" && hasValue) {
      char *end = nullptr;
      const char *text = argv[++i];
      errno = 0;
      options.tune.seed = std::strtoull(text, &end, 10);
      if (!*text || *end || errno || *text == '-')
        return usage("--seed: expected a non-negative integer");
      options.tuningOnly.push_back(argument);
    } else if (argument.rfind("--", 0) == 0) {
      return usage("unknown or incomplete option " + argument);
    } else if (options.bundle.empty()) {
      options.bundle = argument;
    } else {
      return usage("more than one bundle given");
    }
  }
  if (list && clear)
    return usage("--list and --clear exclude each other");
  options.mode = list ? Mode::List : clear ? Mode::Clear : Mode::Tune;
  if (options.mode != Mode::Tune && !options.bundle.empty())
    return usage("--list and --clear take no bundle");
  if (options.mode != Mode::Tune && !options.tuningOnly.empty())
    return usage(options.tuningOnly.front() + " applies only to tuning");
  if (options.mode != Mode::Clear && !options.keyPrefix.empty())
    return usage("--key applies only to --clear");
  if (options.mode == Mode::Tune && options.bundle.empty())
    return usage("no bundle given");
  return options;
}

Error listEntries(const TuningDatabase &database) {
  Expected<std::vector<TuningEntry>> entries = database.entries();
  if (!entries)
    return entries.takeError();
  std::printf("%s: %zu entries\n", database.path().c_str(), entries->size());
  for (const TuningEntry &entry : *entries)
    std::printf("%s\n", summarizeTuningEntry(entry).c_str());
  return Error::success();
}

Error clearEntries(const TuningDatabase &database,
                   const std::string &keyPrefix) {
  Expected<ClearResult> cleared = database.clear(keyPrefix);
  if (!cleared)
    return cleared.takeError();
  if (!cleared->replacedUnreadable.empty())
    std::printf("%s: replaced an unreadable database (%s) by an empty one\n",
                database.path().c_str(), cleared->replacedUnreadable.c_str());
  else
    std::printf("%s: removed %zu entries\n", database.path().c_str(),
                cleared->removed);
  return Error::success();
}

void printError(const Error &error) {
  std::fprintf(stderr, "mirage-tune: error: %s\n", error.message().c_str());
}

/// Tunes every group of the bundle and records it. A group's failure is
/// printed and the others go on; returns how many failed.
Expected<int> tuneBundle(const Options &options,
                         const TuningDatabase &database) {
  // A database that cannot take the results is refused before measuring.
  if (Expected<std::vector<TuningEntry>> stored = database.entries(); !stored)
    return stored.takeError();
  Expected<std::unique_ptr<Bundle>> loaded =
      Bundle::load(options.bundle, options.device);
  if (!loaded)
    return loaded.takeError();
  const Bundle &bundle = **loaded;
  Expected<std::vector<TuningGroup>> groups =
      getTuningGroups(bundle, options.bundle);
  if (!groups)
    return groups.takeError();
  std::printf("bundle: %s (%s on device %d, %s), tuning groups: %zu\n",
              options.bundle.c_str(), bundle.chip().c_str(),
              bundle.device().ordinal, bundle.device().name.c_str(),
              groups->size());
  std::printf("inputs: normal(0, 1) * %g, seed %llu; rtol %g; medians of "
              "%d runs after %d warm-up runs, cold (L2 flushed before each) "
              "and warm (%d calls per run); time: the lower\n",
              options.tune.inputScale,
              static_cast<unsigned long long>(options.tune.seed),
              options.tune.rtol, options.tune.runs, options.tune.warmup,
              warmCalls);
  Expected<std::unique_ptr<Tuner>> tuner = Tuner::create(bundle, options.tune);
  if (!tuner)
    return tuner.takeError();

  int failures = 0;
  auto failed = [&](const Error &error) {
    printError(error);
    ++failures;
  };
  std::vector<TuningEntry> entries;
  tuneAndRecord(**tuner, *groups, {}, database,
                [&](const Expected<TuningEntry> &entry, const Error &recorded) {
                  if (!entry) {
                    failed(entry.error());
                    return;
                  }
                  if ((*tuner)->lastInputScale() != options.tune.inputScale)
                    std::printf("\nthe program as written overflows at input "
                                "scale %g: inputs drawn at %g\n",
                                options.tune.inputScale,
                                (*tuner)->lastInputScale());
                  std::printf("\n%s", formatTuningReport(*entry).c_str());
                  if (recorded)
                    failed(recorded);
                  else
                    std::printf("recorded in %s\n", database.path().c_str());
                  entries.push_back(*entry);
                });
  if (!options.json.empty()) {
    std::ofstream json(options.json, std::ios::binary | std::ios::trunc);
    json << formatTuningDatabase(entries);
    json.close();
    if (!json)
      failed(Error(ErrorCode::InvalidArgument,
                   "--json: cannot write " + options.json));
  }
  return failures;
}

} // namespace

int main(int argc, char **argv) {
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]) == "--help" || std::string(argv[i]) == "-h") {
      std::printf("%s", usageText);
      return 0;
    }
  Expected<Options> options = parseOptions(argc, argv);
  if (!options) {
    printError(options.error());
    std::fprintf(stderr, "%s", usageText);
    return 2;
  }
  std::string path = options->database;
  if (path.empty()) {
    Expected<std::string> found = defaultTuningDatabasePath();
    if (!found) {
      printError(found.error());
      return 1;
    }
    path = *found;
  }
  TuningDatabase database(path);
  if (options->mode == Mode::Tune) {
    Expected<int> failures = tuneBundle(*options, database);
    if (!failures)
      printError(failures.error());
    return failures && *failures == 0 ? 0 : 1;
  }
  if (Error error = options->mode == Mode::List
                        ? listEntries(database)
                        : clearEntries(database, options->keyPrefix)) {
    printError(error);
    return 1;
  }
  return 0;
}
