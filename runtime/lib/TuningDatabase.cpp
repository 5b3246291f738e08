//===- TuningDatabase.cpp - The tuning database's format ------------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Reading and writing the text of a tuning database, its entries' identity,
// summaries and dates, and where the database lives. The file itself (locks,
// atomic replacement) is TuningDatabaseFile.cpp.
//
//===----------------------------------------------------------------------===//

#include "mirage/runtime/TuningDatabase.h"

#include "JsonReader.h"

#include <cstdio>
#include <cstdlib>
#include <limits>

using namespace mirage::runtime;
using json::indexed;
using json::member;

std::string_view
mirage::runtime::measurementStatusName(MeasurementStatus status) {
  switch (status) {
  case MeasurementStatus::Ok:
    return "ok";
  case MeasurementStatus::Wrong:
    return "wrong";
  case MeasurementStatus::Failed:
    return "failed";
  }
  return "?";
}

std::string_view mirage::runtime::tuningBackendName(TuningBackend backend) {
  return backend == TuningBackend::Triton ? "triton" : "ptx";
}

bool TuningEntry::sameIdentity(const TuningEntry &other) const {
  return key == other.key && compiler == other.compiler &&
         device.name == other.device.name &&
         device.major == other.device.major &&
         device.minor == other.device.minor;
}

namespace {

constexpr int64_t maxCandidate = std::numeric_limits<int32_t>::max();

/// The version this runtime writes; it reads every version up to it.
/// Version 2 added each measurement's cold_us and warm_us; version 3 the
/// backend of measurements and winners; version 4 their overlap; version 5
/// measurements timed cold only (cold_us without warm_us, coldOnlyFactor).
constexpr int databaseVersion = 5;

/// Reads a database's JSON tree into entries; see json::Reader.
class DatabaseReader : json::Reader {
public:
  DatabaseReader() : json::Reader("") {}

  Expected<std::vector<TuningEntry>> read(const json::Value &root) {
    std::vector<TuningEntry> entries;
    if (checkObject(root, "", {"format", "version", "entries"})) {
      const json::Value *format = field(root, "", "format");
      if (format && requireString(*format, "format") != "mirage-tuning")
        fail("format", "expected \"mirage-tuning\"");
      if (const json::Value *version = field(root, "", "version")) {
        int64_t number = integer(*version, "version", 1,
                                 std::numeric_limits<int32_t>::max());
        if (!failed() && number > databaseVersion)
          fail("version", "version " + std::to_string(number) +
                              " is newer than this runtime reads (" +
                              std::to_string(databaseVersion) +
                              "); update Mirage");
        readVersion = static_cast<int>(number);
      }
      if (const json::Value *list = field(root, "", "entries")) {
        const std::vector<json::Value> &elements = array(*list, "entries");
        for (size_t i = 0; i < elements.size() && !failed(); ++i)
          entries.push_back(readEntry(elements[i], indexed("entries", i)));
      }
    }
    if (Error error = takeError(ErrorCode::TuningDatabase))
      return error;
    return entries;
  }

  /// Reads a JSON array of measurements, as of the newest version.
  Expected<std::vector<TuningMeasurement>>
  readMeasurements(const json::Value &root) {
    std::vector<TuningMeasurement> measurements;
    const std::vector<json::Value> &elements = array(root, "measurements");
    for (size_t i = 0; i < elements.size() && !failed(); ++i)
      measurements.push_back(
          readMeasurement(elements[i], indexed("measurements", i)));
    if (Error error = takeError(ErrorCode::InvalidArgument))
      return error;
    return measurements;
  }

private:
  TuningEntry readEntry(const json::Value &value, const std::string &path) {
    TuningEntry entry;
    if (!checkObject(value, path,
                     {"key", "compiler", "device", "chip", "date", "winner",
                      "ptx_winner", "measurements"}))
      return entry;
    if (const json::Value *key = field(value, path, "key"))
      entry.key = tuningKey(*key, member(path, "key"));
    if (const json::Value *compiler = field(value, path, "compiler"))
      entry.compiler = nonEmptyString(*compiler, member(path, "compiler"));
    if (const json::Value *device = field(value, path, "device"))
      entry.device = readDevice(*device, member(path, "device"));
    if (const json::Value *chip = field(value, path, "chip"))
      entry.chip = nonEmptyString(*chip, member(path, "chip"));
    if (const json::Value *date = field(value, path, "date"))
      entry.date = nonEmptyString(*date, member(path, "date"));
    if (const json::Value *list = field(value, path, "measurements")) {
      std::string at = member(path, "measurements");
      const std::vector<json::Value> &elements = array(*list, at);
      for (size_t i = 0; i < elements.size() && !failed(); ++i)
        entry.measurements.push_back(
            readMeasurement(elements[i], indexed(at, i)));
    }
    if (const json::Value *winner = field(value, path, "winner"))
      entry.winner =
          readWinner(*winner, member(path, "winner"), entry.measurements);
    std::string ptxPath = member(path, "ptx_winner");
    if (const json::Value *ptx = value.find("ptx_winner")) {
      entry.ptxWinner = readWinner(*ptx, ptxPath, entry.measurements);
      if (!failed() && entry.ptxWinner->backend != TuningBackend::Ptx)
        fail(member(ptxPath, "backend"), "the PTX winner's backend is ptx");
    }
    bool ptxWon = entry.winner.backend == TuningBackend::Ptx;
    if (!failed() && ptxWon == entry.ptxWinner.has_value())
      fail(ptxPath, "present exactly when the winner is not a PTX form");
    return entry;
  }

  TuningDevice readDevice(const json::Value &value, const std::string &path) {
    TuningDevice device;
    if (!checkObject(value, path, {"name", "compute_capability"}))
      return device;
    if (const json::Value *name = field(value, path, "name"))
      device.name = nonEmptyString(*name, member(path, "name"));
    const json::Value *capability = field(value, path, "compute_capability");
    if (!capability)
      return device;
    const std::vector<json::Value> *numbers =
        capability->isArray() ? &capability->getArray() : nullptr;
    auto valid = [](const json::Value &number) {
      return number.isInteger() && number.getInteger() >= 0 &&
             number.getInteger() <= 1000;
    };
    if (!numbers || numbers->size() != 2 || !valid((*numbers)[0]) ||
        !valid((*numbers)[1])) {
      fail(member(path, "compute_capability"), "expected [major, minor]");
      return device;
    }
    device.major = static_cast<int>((*numbers)[0].getInteger());
    device.minor = static_cast<int>((*numbers)[1].getInteger());
    return device;
  }

  TuningMeasurement readMeasurement(const json::Value &value,
                                    const std::string &path) {
    TuningMeasurement measurement;
    if (!checkObject(value, path,
                     {"function", "candidate", "backend", "overlap", "status",
                      "median_us", "cold_us", "warm_us", "max_rel_err",
                      "message"}))
      return measurement;
    if (const json::Value *function = field(value, path, "function"))
      measurement.function =
          nonEmptyString(*function, member(path, "function"));
    if (const json::Value *candidate = field(value, path, "candidate"))
      measurement.candidate =
          integer(*candidate, member(path, "candidate"), -1, maxCandidate);
    if (const json::Value *backend = value.find("backend"))
      measurement.backend = readBackend(*backend, member(path, "backend"));
    if (const json::Value *overlap = value.find("overlap"))
      measurement.overlap = readOverlap(*overlap, member(path, "overlap"));
    if (const json::Value *status = field(value, path, "status")) {
      std::string name = requireString(*status, member(path, "status"));
      bool known = false;
      for (MeasurementStatus candidate :
           {MeasurementStatus::Ok, MeasurementStatus::Wrong,
            MeasurementStatus::Failed})
        if (measurementStatusName(candidate) == name) {
          measurement.status = candidate;
          known = true;
        }
      if (!known)
        fail(member(path, "status"),
             "unknown status \"" + name + "\" (expected ok, wrong or failed)");
    }
    if (const json::Value *median = value.find("median_us"))
      measurement.medianUs =
          nonNegativeNumber(*median, member(path, "median_us"));
    for (auto [name, time] : {std::pair("cold_us", &measurement.coldUs),
                              std::pair("warm_us", &measurement.warmUs)})
      if (const json::Value *number = value.find(name))
        *time = nonNegativeNumber(*number, member(path, name));
    if (const json::Value *error = value.find("max_rel_err"))
      measurement.maxRelativeError =
          nonNegativeNumber(*error, member(path, "max_rel_err"));
    if (const json::Value *message = value.find("message"))
      measurement.message = requireString(*message, member(path, "message"));
    bool ok = measurement.status == MeasurementStatus::Ok;
    if (!failed() && ok != measurement.medianUs.has_value())
      fail(path, ok ? "an \"ok\" measurement needs median_us"
                    : "only an \"ok\" measurement has median_us");
    // Version 1 measured with a cold L2 only and had neither; in version 2
    // an "ok" measurement may have both (entries kept from version 1 don't),
    // and in version 5 cold_us alone (timed cold only).
    bool hasCold = measurement.coldUs.has_value();
    bool hasWarm = measurement.warmUs.has_value();
    if (!failed() && hasWarm && !hasCold)
      fail(path, "warm_us needs cold_us");
    else if (!failed() && hasCold && (!ok || readVersion < 2))
      fail(path, "cold_us and warm_us are of an \"ok\" measurement of "
                 "version 2 or later");
    else if (!failed() && hasCold && !hasWarm && readVersion < 5)
      fail(path, "cold_us and warm_us come together before version 5");
    return measurement;
  }

  TuningWinner readWinner(const json::Value &value, const std::string &path,
                          const std::vector<TuningMeasurement> &measurements) {
    TuningWinner winner;
    if (!checkObject(value, path,
                     {"function", "candidate", "backend", "overlap",
                      "median_us", "program"}))
      return winner;
    if (const json::Value *function = field(value, path, "function"))
      winner.function = nonEmptyString(*function, member(path, "function"));
    if (const json::Value *candidate = field(value, path, "candidate"))
      winner.candidate =
          integer(*candidate, member(path, "candidate"), -1, maxCandidate);
    if (const json::Value *backend = value.find("backend"))
      winner.backend = readBackend(*backend, member(path, "backend"));
    if (const json::Value *overlap = value.find("overlap"))
      winner.overlap = readOverlap(*overlap, member(path, "overlap"));
    if (const json::Value *median = field(value, path, "median_us"))
      winner.medianUs = nonNegativeNumber(*median, member(path, "median_us"));
    if (const json::Value *program = value.find("program"))
      if (requireObject(*program, member(path, "program")))
        winner.program = json::write(*program);
    bool measured = false;
    for (const TuningMeasurement &measurement : measurements)
      measured |= measurement.function == winner.function &&
                  measurement.candidate == winner.candidate &&
                  measurement.backend == winner.backend &&
                  measurement.overlap == winner.overlap &&
                  measurement.status == MeasurementStatus::Ok;
    if (!failed() && !measured)
      fail(path, winner.function + " (candidate " +
                     std::to_string(winner.candidate) + ", " +
                     std::string(tuningBackendName(winner.backend)) +
                     (winner.overlap ? "" : ", no overlap") +
                     ") is not an \"ok\" measurement of the entry");
    return winner;
  }

  /// "ptx" or "triton", from version 3 on.
  TuningBackend readBackend(const json::Value &value, const std::string &path) {
    std::string name = requireString(value, path);
    if (failed())
      return TuningBackend::Ptx;
    if (readVersion < 3) {
      fail(path, "a backend is recorded from version 3 on");
      return TuningBackend::Ptx;
    }
    for (TuningBackend backend : {TuningBackend::Ptx, TuningBackend::Triton})
      if (tuningBackendName(backend) == name)
        return backend;
    fail(path, "unknown backend \"" + name + "\" (expected ptx or triton)");
    return TuningBackend::Ptx;
  }

  /// A boolean, from version 4 on.
  bool readOverlap(const json::Value &value, const std::string &path) {
    bool overlap = boolean(value, path, true);
    if (!failed() && readVersion < 4)
      fail(path, "an overlap is recorded from version 4 on");
    return overlap;
  }

  /// The version of the database being read.
  int readVersion = databaseVersion;
};

json::Value string(const std::string &text) {
  return json::Value::makeString(text);
}

json::Value winnerValue(const TuningWinner &winner) {
  std::vector<json::Value::Member> members = {
      {"function", string(winner.function)},
      {"candidate", json::Value::makeInteger(winner.candidate)}};
  if (winner.backend != TuningBackend::Ptx)
    members.emplace_back(
        "backend", string(std::string(tuningBackendName(winner.backend))));
  if (!winner.overlap)
    members.emplace_back("overlap", json::Value::makeBool(false));
  members.emplace_back("median_us", json::Value::makeReal(winner.medianUs));
  if (!winner.program.empty()) {
    // Text that is no JSON is kept as a string, which the reader rejects.
    Expected<json::Value> program = json::parse(winner.program);
    members.emplace_back("program", program ? std::move(*program)
                                            : string(winner.program));
  }
  return json::Value::makeObject(std::move(members));
}

json::Value entryValue(const TuningEntry &entry) {
  std::vector<json::Value> measurements;
  for (const TuningMeasurement &measurement : entry.measurements) {
    std::vector<json::Value::Member> members = {
        {"function", string(measurement.function)},
        {"candidate", json::Value::makeInteger(measurement.candidate)}};
    if (measurement.backend != TuningBackend::Ptx)
      members.emplace_back(
          "backend",
          string(std::string(tuningBackendName(measurement.backend))));
    if (!measurement.overlap)
      members.emplace_back("overlap", json::Value::makeBool(false));
    members.emplace_back(
        "status",
        string(std::string(measurementStatusName(measurement.status))));
    if (measurement.medianUs)
      members.emplace_back("median_us",
                           json::Value::makeReal(*measurement.medianUs));
    if (measurement.coldUs)
      members.emplace_back("cold_us",
                           json::Value::makeReal(*measurement.coldUs));
    if (measurement.warmUs)
      members.emplace_back("warm_us",
                           json::Value::makeReal(*measurement.warmUs));
    if (measurement.maxRelativeError)
      members.emplace_back(
          "max_rel_err", json::Value::makeReal(*measurement.maxRelativeError));
    if (!measurement.message.empty())
      members.emplace_back("message", string(measurement.message));
    measurements.push_back(json::Value::makeObject(std::move(members)));
  }
  std::vector<json::Value::Member> fields = {
      {"key", string(entry.key)},
      {"compiler", string(entry.compiler)},
      {"device", json::Value::makeObject(
                     {{"name", string(entry.device.name)},
                      {"compute_capability",
                       json::Value::makeArray(
                           {json::Value::makeInteger(entry.device.major),
                            json::Value::makeInteger(entry.device.minor)})}})},
      {"chip", string(entry.chip)},
      {"date", string(entry.date)},
      {"winner", winnerValue(entry.winner)}};
  if (entry.ptxWinner)
    fields.emplace_back("ptx_winner", winnerValue(*entry.ptxWinner));
  fields.emplace_back("measurements",
                      json::Value::makeArray(std::move(measurements)));
  return json::Value::makeObject(std::move(fields));
}

} // namespace

Expected<std::vector<TuningEntry>>
mirage::runtime::parseTuningDatabase(std::string_view text) {
  Expected<json::Value> root = json::parse(text);
  if (!root)
    return Error(ErrorCode::TuningDatabase, root.error().message());
  return DatabaseReader().read(*root);
}

Expected<std::vector<TuningMeasurement>>
mirage::runtime::parseTuningMeasurements(std::string_view text) {
  Expected<json::Value> root = json::parse(text);
  if (!root)
    return Error(ErrorCode::InvalidArgument,
                 "measurements: " + root.error().message());
  return DatabaseReader().readMeasurements(*root);
}

std::string
mirage::runtime::formatTuningDatabase(const std::vector<TuningEntry> &entries) {
  std::vector<json::Value> values;
  for (const TuningEntry &entry : entries)
    values.push_back(entryValue(entry));
  json::Value root = json::Value::makeObject(
      {{"format", string("mirage-tuning")},
       {"version", json::Value::makeInteger(databaseVersion)},
       {"entries", json::Value::makeArray(std::move(values))}});
  return json::write(root, json::Style::Pretty) + "\n";
}

std::string mirage::runtime::summarizeTuningEntry(const TuningEntry &entry) {
  const TuningWinner &winner = entry.winner;
  char median[64];
  std::snprintf(median, sizeof(median), "%.2f us", winner.medianUs);
  std::string choice = winner.candidate == -1
                           ? "as written"
                           : "candidate " + std::to_string(winner.candidate);
  if (winner.backend != TuningBackend::Ptx)
    choice += ", " + std::string(tuningBackendName(winner.backend));
  if (!winner.overlap)
    choice += ", no overlap";
  return entry.key.substr(0, 16) + "  " + entry.device.name + " (" +
         std::to_string(entry.device.major) + "." +
         std::to_string(entry.device.minor) + ", " + entry.chip + ")  " +
         entry.compiler + "  winner " + winner.function + " (" + choice +
         ")  " + median + "  " + entry.date;
}

std::string mirage::runtime::utcDate(std::time_t time) {
  std::tm parts = {};
  gmtime_r(&time, &parts);
  char text[32];
  std::strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%SZ", &parts);
  return text;
}

Expected<std::string> mirage::runtime::defaultTuningDatabasePath() {
  auto variable = [](const char *name) {
    const char *value = std::getenv(name);
    return std::string(value ? value : "");
  };
  if (std::string path = variable("MIRAGE_TUNING_DB"); !path.empty())
    return path;
  if (std::string cache = variable("XDG_CACHE_HOME");
      !cache.empty() && cache.front() == '/')
    return cache + "/mirage/tuning.json";
  if (std::string home = variable("HOME"); !home.empty())
    return home + "/.cache/mirage/tuning.json";
  return Error(ErrorCode::TuningDatabase,
               "cannot locate the tuning database: set MIRAGE_TUNING_DB (or "
               "XDG_CACHE_HOME or HOME)");
}
