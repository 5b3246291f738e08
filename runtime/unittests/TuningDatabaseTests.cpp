//===- TuningDatabaseTests.cpp - Tests of the tuning database -------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Testing.h"

#include "mirage/runtime/TuningDatabase.h"

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <optional>

#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

using namespace mirage::runtime;
using mirage::runtime::testing::TemporaryDirectory;

namespace {

/// A key made of one repeated hex digit after `prefix`.
std::string makeKey(const std::string &prefix, char digit = '0') {
  return prefix + std::string(64 - prefix.size(), digit);
}

/// An entry for `key` on `device` (compute capability `major`.0) won by
/// candidate 1, which has a program.
TuningEntry makeEntry(const std::string &key,
                      const std::string &device = "NVIDIA H100 80GB HBM3",
                      int major = 9, const std::string &compiler = "mirage 1") {
  TuningEntry entry;
  entry.key = key;
  entry.compiler = compiler;
  entry.device = {device, major, 0};
  entry.chip = major == 9 ? "sm_90a" : "sm_80";
  entry.date = "2026-11-25T10:00:00Z";
  entry.winner = {"f_candidate_1", 1, 12.5,
                  R"({"ops":[{"op":"add","value":1.0}],"name":"a\"b"})"};
  entry.measurements = {
      {"f", -1, MeasurementStatus::Ok, 20.25, 0.0, "", 20.25, 30.5},
      {"f_candidate_0", 0, MeasurementStatus::Wrong, std::nullopt, 0.9,
       "max relative error 0.9 exceeds 0.02"},
      {"f_candidate_1", 1, MeasurementStatus::Ok, 12.5, 1e-3, ""},
      {"f_candidate_2", 2, MeasurementStatus::Failed, std::nullopt,
       std::nullopt, "cuLaunchKernelEx: CUDA_ERROR_INVALID_VALUE"}};
  return entry;
}

/// parseTuningDatabase of `text` with its first `from` replaced by `to`
/// (which must be there).
Expected<std::vector<TuningEntry>>
parseEdited(std::string text, const std::string &from, const std::string &to) {
  size_t position = text.find(from);
  EXPECT_TRUE(position != std::string::npos);
  if (position != std::string::npos)
    text.replace(position, from.size(), to);
  return parseTuningDatabase(text);
}

/// Entries compare equal when they are written the same.
std::string text(const std::vector<TuningEntry> &entries) {
  return formatTuningDatabase(entries);
}

std::string readBytes(const std::filesystem::path &path) {
  std::ifstream stream(path, std::ios::binary);
  std::ostringstream contents;
  contents << stream.rdbuf();
  return contents.str();
}

/// The names in `directory`, sorted.
std::vector<std::string> listing(const std::filesystem::path &directory) {
  std::vector<std::string> names;
  for (const auto &entry : std::filesystem::directory_iterator(directory))
    names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

std::string join(const std::vector<std::string> &names) {
  std::string joined;
  for (const std::string &name : names)
    joined += (joined.empty() ? "" : " ") + name;
  return joined;
}

/// Sets or unsets an environment variable for the scope, then restores it.
class ScopedVariable {
public:
  ScopedVariable(const char *name, const char *value) : name(name) {
    if (const char *old = std::getenv(name))
      saved = old;
    if (value)
      ::setenv(name, value, 1);
    else
      ::unsetenv(name);
  }
  ~ScopedVariable() {
    if (saved)
      ::setenv(name, saved->c_str(), 1);
    else
      ::unsetenv(name);
  }

private:
  const char *name;
  std::optional<std::string> saved;
};

std::string defaultPath() {
  Expected<std::string> path = defaultTuningDatabasePath();
  return path ? *path : "error: " + path.error().message();
}

/// Runs `body` in a child process; true when it returned true.
template <typename Body> bool inChild(Body body) {
  pid_t child = ::fork();
  if (child == 0)
    ::_exit(body() ? 0 : 1);
  int status = 0;
  return child > 0 && ::waitpid(child, &status, 0) == child &&
         WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

} // namespace

MIRAGE_TEST(TuningDatabase, RoundTripsEntries) {
  TemporaryDirectory directory;
  TuningDatabase database((directory.path / "a/b/tuning.json").string());
  TuningEntry entry = makeEntry(makeKey("ab"));
  EXPECT_OK(database.record(entry));
  Expected<std::vector<TuningEntry>> entries = database.entries();
  EXPECT_OK(entries);
  if (!entries || entries->size() != 1) {
    EXPECT_TRUE(entries && entries->size() == 1);
    return;
  }
  const TuningEntry &read = (*entries)[0];
  EXPECT_EQ(read.key, entry.key);
  EXPECT_EQ(read.device.name, std::string("NVIDIA H100 80GB HBM3"));
  EXPECT_EQ(read.device.major, 9);
  EXPECT_EQ(read.winner.program, entry.winner.program);
  EXPECT_EQ(read.measurements.size(), size_t(4));
  EXPECT_TRUE(read.measurements[1].status == MeasurementStatus::Wrong);
  EXPECT_TRUE(!read.measurements[3].maxRelativeError &&
              !read.measurements[3].medianUs);
  EXPECT_EQ(read.measurements[0].medianUs.value_or(0), 20.25);
  EXPECT_EQ(read.measurements[0].coldUs.value_or(0), 20.25);
  EXPECT_EQ(read.measurements[0].warmUs.value_or(0), 30.5);
  EXPECT_TRUE(!read.measurements[2].coldUs && !read.measurements[2].warmUs);
  EXPECT_EQ(text(*entries), text({entry}));
  std::string file = readBytes(database.path());
  EXPECT_TRUE(
      file.rfind("{\n  \"format\": \"mirage-tuning\",\n  \"version\": 5,", 0) ==
      0);
  EXPECT_TRUE(file.back() == '\n');
  EXPECT_EQ(join(listing(directory.path / "a/b")),
            std::string("tuning.json tuning.json.lock"));
}

MIRAGE_TEST(TuningDatabase, KeepsTheWinnersProgramAbsentWhenItHasNone) {
  TuningEntry entry = makeEntry(makeKey("ab"));
  entry.winner = {"f", -1, 20.25, ""};
  Expected<std::vector<TuningEntry>> entries =
      parseTuningDatabase(formatTuningDatabase({entry}));
  EXPECT_TRUE(entries && entries->size() == 1 &&
              (*entries)[0].winner.program.empty());
  EXPECT_TRUE(formatTuningDatabase({entry}).find("program") ==
              std::string::npos);
}

MIRAGE_TEST(TuningDatabase, TreatsAMissingFileAsEmpty) {
  TemporaryDirectory directory;
  TuningDatabase database((directory.path / "none/tuning.json").string());
  Expected<std::vector<TuningEntry>> entries = database.entries();
  EXPECT_TRUE(entries && entries->empty());
  Expected<std::vector<TuningEntry>> found =
      database.lookup(makeKey("ab"), "mirage 1", 9, 0);
  EXPECT_TRUE(found && found->empty());
  Expected<ClearResult> cleared = database.clear();
  EXPECT_TRUE(cleared && cleared->removed == 0);
  EXPECT_TRUE(!std::filesystem::exists(directory.path / "none"));
}

MIRAGE_TEST(TuningDatabase, RecordReplacesTheSameIdentityOnly) {
  TemporaryDirectory directory;
  TuningDatabase database((directory.path / "tuning.json").string());
  std::string key = makeKey("ab"), other = makeKey("cd");
  TuningEntry h100 = makeEntry(key);
  std::vector<TuningEntry> expected = {
      h100, makeEntry(key, "NVIDIA A100-SXM4-80GB", 8), makeEntry(other),
      makeEntry(key, "NVIDIA H100 80GB HBM3", 9, "mirage 2"),
      makeEntry(key, "NVIDIA H100 PCIe", 9)};
  for (const TuningEntry &entry : expected)
    EXPECT_OK(database.record(entry));
  TuningEntry again = h100;
  again.winner = {"f", -1, 19.0, ""};
  again.date = "2026-11-26T08:30:00Z";
  EXPECT_OK(database.record(again));
  expected[0] = again;
  Expected<std::vector<TuningEntry>> entries = database.entries();
  EXPECT_TRUE(entries && text(*entries) == text(expected));

  Expected<std::vector<TuningEntry>> found =
      database.lookup(key, "mirage 1", 9, 0);
  EXPECT_TRUE(found && text(*found) == text({again, expected[4]}));
  found = database.lookup(key, "mirage 1", 8, 0);
  EXPECT_TRUE(found && text(*found) == text({expected[1]}));
  found = database.lookup(key, "mirage 2", 9, 0);
  EXPECT_TRUE(found && text(*found) == text({expected[3]}));
  found = database.lookup(key, "mirage 1", 9, 1);
  EXPECT_TRUE(found && found->empty());
  EXPECT_TRUE(h100.sameIdentity(again) && !h100.sameIdentity(expected[4]));
}

MIRAGE_TEST(TuningDatabase, ClearsByKeyPrefix) {
  TemporaryDirectory directory;
  TuningDatabase database((directory.path / "tuning.json").string());
  for (const char *prefix : {"aa", "ab", "ba"})
    EXPECT_OK(database.record(makeEntry(makeKey(prefix))));
  Expected<ClearResult> cleared = database.clear("a");
  EXPECT_TRUE(cleared && cleared->removed == 2 &&
              cleared->replacedUnreadable.empty());
  Expected<std::vector<TuningEntry>> entries = database.entries();
  EXPECT_TRUE(entries && entries->size() == 1 &&
              (*entries)[0].key == makeKey("ba"));
  cleared = database.clear("c");
  EXPECT_TRUE(cleared && cleared->removed == 0);
  cleared = database.clear();
  EXPECT_TRUE(cleared && cleared->removed == 1);
  entries = database.entries();
  EXPECT_TRUE(entries && entries->empty());
}

MIRAGE_TEST(TuningDatabase, RefusesUnreadableFilesAndLeavesThemAlone) {
  const std::pair<const char *, const char *> cases[] = {
      {R"({"format": "mirage-tuning", "version": 1, "entries": [)",
       "line 1, column 55: unexpected end of input"},
      {"", "line 1, column 1: unexpected end of input"},
      {"\x01garbage", "line 1, column 1: expected a value"},
      {R"({"format": "mirage-bundle", "version": 1, "entries": []})",
       "format: expected \"mirage-tuning\""},
      {R"({"format": "mirage-tuning", "version": 6, "entries": []})",
       "version: version 6 is newer than this runtime reads (5); update "
       "Mirage"},
      {R"({"format": "mirage-tuning", "version": 0, "entries": []})",
       "version: expected an integer in [1, "},
      {R"([])", "expected an object, got an array"},
  };
  for (const auto &[contents, problem] : cases) {
    TemporaryDirectory directory;
    std::filesystem::path path = directory.path / "tuning.json";
    directory.write("tuning.json", contents);
    TuningDatabase database(path.string());
    std::string message = "tuning database " + path.string() + ": " + problem;
    EXPECT_FAILS_WITH(database.entries(), message);
    EXPECT_FAILS_WITH(database.entries(),
                      "fix or remove the file, or empty it with "
                      "`mirage-tune --clear`");
    EXPECT_FAILS_WITH(database.lookup(makeKey("ab"), "mirage 1", 9, 0),
                      message);
    EXPECT_FAILS_WITH(database.record(makeEntry(makeKey("ab"))), message);
    EXPECT_FAILS_WITH(database.clear("ab"), message);
    EXPECT_EQ(readBytes(path), std::string(contents));
    EXPECT_EQ(join(listing(directory.path)),
              std::string("tuning.json tuning.json.lock"));

    Expected<ClearResult> cleared = database.clear();
    EXPECT_TRUE(cleared && cleared->removed == 0);
    if (cleared)
      EXPECT_TRUE(cleared->replacedUnreadable.find(problem) !=
                  std::string::npos);
    Expected<std::vector<TuningEntry>> entries = database.entries();
    EXPECT_TRUE(entries && entries->empty());
  }
}

MIRAGE_TEST(TuningDatabase, RefusesFilesThatAreNotRegular) {
  TemporaryDirectory directory;
  std::filesystem::path fifo = directory.path / "fifo.json";
  std::filesystem::path folder = directory.path / "folder.json";
  EXPECT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::filesystem::create_directory(folder);
  for (const auto &[path, kind] :
       {std::pair{fifo, "a FIFO"}, std::pair{folder, "a directory"}}) {
    TuningDatabase database(path.string());
    std::string message = "tuning database " + path.string() +
                          ": not a regular file (" + kind +
                          "); left as it is: remove it or choose another "
                          "database path";
    EXPECT_FAILS_WITH(database.entries(), message);
    EXPECT_FAILS_WITH(database.record(makeEntry(makeKey("ab"))), message);
    EXPECT_FAILS_WITH(database.clear(), message);
  }
  EXPECT_TRUE(std::filesystem::is_fifo(fifo));
  EXPECT_TRUE(std::filesystem::is_directory(folder) &&
              std::filesystem::is_empty(folder));
  EXPECT_EQ(join(listing(directory.path)),
            std::string("fifo.json fifo.json.lock folder.json "
                        "folder.json.lock"));
}

MIRAGE_TEST(TuningDatabase, RefusesFilesOverTheSizeCap) {
  TemporaryDirectory directory;
  std::filesystem::path path = directory.path / "tuning.json";
  directory.write("tuning.json", "");
  std::filesystem::resize_file(path, maxTuningDatabaseBytes + 1);
  TuningDatabase database(path.string());
  std::string message = "tuning database " + path.string() +
                        ": 67108865 bytes, more than the 67108864 a tuning "
                        "database may hold";
  EXPECT_FAILS_WITH(database.entries(), message);
  EXPECT_FAILS_WITH(database.record(makeEntry(makeKey("ab"))), message);
  EXPECT_EQ(std::filesystem::file_size(path),
            uintmax_t(maxTuningDatabaseBytes + 1));
}

MIRAGE_TEST(TuningDatabase, RefusesToGrowBeyondTheSizeCap) {
  TemporaryDirectory directory;
  TuningDatabase database((directory.path / "tuning.json").string());
  EXPECT_OK(database.record(makeEntry(makeKey("ab"))));
  std::string before = readBytes(database.path());
  TuningEntry huge = makeEntry(makeKey("cd"));
  huge.winner.program =
      R"({"pad": ")" + std::string(size_t(maxTuningDatabaseBytes), 'x') + "\"}";
  EXPECT_FAILS_WITH(database.record(huge),
                    "tuning database " + database.path() +
                        ": recording the entry would make the file");
  EXPECT_EQ(readBytes(database.path()), before);
}

MIRAGE_TEST(TuningDatabase, WriteFailuresKeepTheOldFile) {
  TemporaryDirectory directory;
  TuningDatabase database((directory.path / "tuning.json").string());
  EXPECT_OK(database.record(makeEntry(makeKey("ab"))));
  std::string before = readBytes(database.path());
  // A file size limit below the new file's size makes its write fail with
  // EFBIG, as a full disk fails with ENOSPC.
  bool failedCleanly = inChild([&] {
    std::signal(SIGXFSZ, SIG_IGN);
    rlimit limit = {512, 512};
    ::setrlimit(RLIMIT_FSIZE, &limit);
    Error error = database.record(makeEntry(makeKey("cd")));
    return testing::failsWith(error, "tuning database " + database.path() +
                                         ": cannot write " + database.path() +
                                         ".tmp.") &&
           testing::failsWith(error, "the database is left as it was");
  });
  EXPECT_TRUE(failedCleanly);
  EXPECT_EQ(readBytes(database.path()), before);
  EXPECT_EQ(join(listing(directory.path)),
            std::string("tuning.json tuning.json.lock"));
}

MIRAGE_TEST(TuningDatabase, ConcurrentWritersAllLand) {
  TemporaryDirectory directory;
  TuningDatabase database((directory.path / "tuning.json").string());
  constexpr int writers = 6, entriesEach = 5;
  std::vector<pid_t> children;
  for (int w = 0; w < writers; ++w) {
    pid_t child = ::fork();
    if (child == 0) {
      bool ok = true;
      for (int e = 0; e < entriesEach; ++e)
        ok &= !database.record(
            makeEntry(makeKey(std::to_string(w) + std::to_string(e))));
      ::_exit(ok ? 0 : 1);
    }
    children.push_back(child);
  }
  for (pid_t child : children) {
    int status = 0;
    EXPECT_TRUE(::waitpid(child, &status, 0) == child && WIFEXITED(status) &&
                WEXITSTATUS(status) == 0);
  }
  Expected<std::vector<TuningEntry>> entries = database.entries();
  EXPECT_OK(entries);
  if (entries)
    EXPECT_EQ(entries->size(), size_t(writers * entriesEach));
  EXPECT_EQ(join(listing(directory.path)),
            std::string("tuning.json tuning.json.lock"));
}

MIRAGE_TEST(TuningDatabase, RejectsBadEntries) {
  std::string valid = formatTuningDatabase({makeEntry(makeKey("ab"))});
  EXPECT_OK(parseTuningDatabase(valid));
  auto edited = [&](const std::string &from, const std::string &to) {
    return parseEdited(valid, from, to);
  };
  EXPECT_FAILS_WITH(edited("\"key\": \"ab", "\"key\": \"AB"),
                    "entries[0].key: expected 64 lowercase hex digits");
  EXPECT_FAILS_WITH(
      edited("\"compute_capability\": [9, 0]", "\"compute_capability\": [9]"),
      "entries[0].device.compute_capability: expected "
      "[major, minor]");
  EXPECT_FAILS_WITH(edited("\"status\": \"wrong\"", "\"status\": \"slow\""),
                    "entries[0].measurements[1].status: unknown status "
                    "\"slow\" (expected ok, wrong or failed)");
  EXPECT_FAILS_WITH(edited("\"median_us\": 20.25,\n", ""),
                    "entries[0].measurements[0]: an \"ok\" measurement "
                    "needs median_us");
  EXPECT_FAILS_WITH(edited("\"warm_us\": 30.5", "\"warm\": 30.5"),
                    "entries[0].measurements[0]: unknown field \"warm\"");
  // Timed cold only (Tuner's coldOnlyFactor) since version 5.
  std::string coldOnly = valid;
  const std::string warm = "\"warm_us\": 30.5,\n";
  coldOnly.erase(coldOnly.find(warm), warm.size());
  EXPECT_OK(parseTuningDatabase(coldOnly));
  EXPECT_FAILS_WITH(parseEdited(coldOnly, "\"version\": 5", "\"version\": 4"),
                    "entries[0].measurements[0]: cold_us and warm_us come "
                    "together before version 5");
  EXPECT_FAILS_WITH(edited("\"cold_us\": 20.25,\n", ""),
                    "entries[0].measurements[0]: warm_us needs cold_us");
  EXPECT_FAILS_WITH(edited("\"version\": 5", "\"version\": 1"),
                    "entries[0].measurements[0]: cold_us and warm_us are of "
                    "an \"ok\" measurement of version 2 or later");
  EXPECT_FAILS_WITH(edited("\"median_us\": 20.25", "\"median_us\": -1"),
                    "entries[0].measurements[0].median_us: expected a "
                    "number >= 0");
  EXPECT_FAILS_WITH(
      edited("\"function\": \"f_candidate_1\",\n        \"candidate\": 1",
             "\"function\": \"f_candidate_0\",\n        \"candidate\": 0"),
      "entries[0].winner: f_candidate_0 (candidate 0, ptx) is not an \"ok\" "
      "measurement of the entry");
  EXPECT_FAILS_WITH(
      edited("\"chip\": \"sm_90a\"", "\"chip\": \"sm_90a\", \"colour\": 1"),
      "entries[0]: unknown field \"colour\"");
  EXPECT_FAILS_WITH(edited("\"program\": {", "\"program\": [{"), "line ");
  EXPECT_FAILS_WITH(
      parseTuningDatabase(
          R"({"format": "mirage-tuning", "version": 1, "entries": {}})"),
      "entries: expected an array, got an object");
}

/// makeEntry's entry where candidate 1's Triton form was measured too and
/// won.
/// How many times `needle` occurs in `text`.
size_t occurrences(const std::string &text, const std::string &needle) {
  size_t count = 0;
  for (size_t at = text.find(needle); at != std::string::npos;
       at = text.find(needle, at + 1))
    ++count;
  return count;
}

TuningEntry makeTritonEntry() {
  TuningEntry entry = makeEntry(makeKey("ab"));
  TuningMeasurement triton = entry.measurements[2];
  triton.backend = TuningBackend::Triton;
  triton.medianUs = triton.coldUs = 10.5;
  triton.warmUs = 11.0;
  entry.measurements.push_back(triton);
  entry.ptxWinner = entry.winner;
  entry.winner.medianUs = 10.5;
  entry.winner.backend = TuningBackend::Triton;
  return entry;
}

MIRAGE_TEST(TuningDatabase, RoundTripsTritonMeasurementsAndWinners) {
  TuningEntry entry = makeTritonEntry();
  std::string written = formatTuningDatabase({entry});
  // Only the Triton forms carry a backend; PTX is the default.
  EXPECT_EQ(occurrences(written, "\"backend\": \"triton\""), size_t(2));
  EXPECT_TRUE(written.find("\"backend\": \"ptx\"") == std::string::npos);
  Expected<std::vector<TuningEntry>> read = parseTuningDatabase(written);
  EXPECT_OK(read);
  if (!read)
    return;
  EXPECT_TRUE((*read)[0].winner.backend == TuningBackend::Triton);
  EXPECT_TRUE((*read)[0].ptxWinner &&
              (*read)[0].ptxWinner->backend == TuningBackend::Ptx &&
              (*read)[0].ptxWinner->medianUs == 12.5);
  EXPECT_TRUE((*read)[0].measurements[4].backend == TuningBackend::Triton);
  EXPECT_TRUE((*read)[0].measurements[2].backend == TuningBackend::Ptx);
  EXPECT_EQ(text(*read), written);
}

/// makeEntry's, its winner timed faster without programmatic dependent
/// launch.
TuningEntry makeSerialEntry() {
  TuningEntry entry = makeEntry(makeKey("cd"));
  entry.measurements[2].overlap = false;
  entry.winner.overlap = false;
  return entry;
}

MIRAGE_TEST(TuningDatabase, RoundTripsTheOverlapChoice) {
  std::string written = formatTuningDatabase({makeSerialEntry()});
  // Written only where it is off: the winner and its measurement.
  EXPECT_EQ(occurrences(written, "\"overlap\": false"), size_t(2));
  EXPECT_TRUE(written.find("\"overlap\": true") == std::string::npos);
  Expected<std::vector<TuningEntry>> read = parseTuningDatabase(written);
  EXPECT_OK(read);
  if (!read)
    return;
  EXPECT_TRUE(!(*read)[0].winner.overlap);
  EXPECT_TRUE(!(*read)[0].measurements[2].overlap);
  EXPECT_TRUE((*read)[0].measurements[0].overlap);
  EXPECT_EQ(text(*read), written);
  EXPECT_TRUE(
      summarizeTuningEntry((*read)[0]).find("(candidate 1, no overlap)") !=
      std::string::npos);
}

MIRAGE_TEST(TuningDatabase, KeepsAMeasurementTimedColdOnly) {
  TuningEntry entry = makeEntry(makeKey("cd"));
  entry.measurements[0].warmUs.reset();
  entry.measurements[0].message = "timed cold only: 9.0x the fastest before it";
  std::string text = formatTuningDatabase({entry});
  EXPECT_EQ(text.find("\"warm_us\""), std::string::npos);
  Expected<std::vector<TuningEntry>> read = parseTuningDatabase(text);
  EXPECT_OK(read);
  if (read) {
    EXPECT_EQ((*read)[0].measurements[0].coldUs.value_or(0), 20.25);
    EXPECT_TRUE(!(*read)[0].measurements[0].warmUs.has_value());
    EXPECT_EQ((*read)[0].measurements[0].message,
              entry.measurements[0].message);
  }
}

MIRAGE_TEST(TuningDatabase, RejectsBadOverlaps) {
  std::string valid = formatTuningDatabase({makeSerialEntry()});
  auto edited = [&](const std::string &from, const std::string &to) {
    return parseEdited(valid, from, to);
  };
  EXPECT_FAILS_WITH(edited("\"overlap\": false", "\"overlap\": 0"),
                    "entries[0].winner.overlap: expected true or false");
  EXPECT_FAILS_WITH(edited("\"version\": 5", "\"version\": 3"),
                    "entries[0].measurements[2].overlap: an overlap is "
                    "recorded from version 4 on");
  // The winner must be an "ok" measurement with its overlap.
  EXPECT_FAILS_WITH(
      edited("\"overlap\": false,\n          \"status\"", "\"status\""),
      "entries[0].winner: f_candidate_1 (candidate 1, ptx, no overlap) is "
      "not an \"ok\" measurement");
}

MIRAGE_TEST(TuningDatabase, RejectsBadBackends) {
  std::string valid = formatTuningDatabase({makeTritonEntry()});
  auto edited = [&](const std::string &from, const std::string &to) {
    return parseEdited(valid, from, to);
  };
  EXPECT_FAILS_WITH(edited("\"backend\": \"triton\"", "\"backend\": \"cuda\""),
                    "entries[0].winner.backend: unknown backend \"cuda\" "
                    "(expected ptx or triton)");
  EXPECT_FAILS_WITH(edited("\"version\": 5", "\"version\": 2"),
                    "entries[0].measurements[4].backend: a backend is "
                    "recorded from version 3 on");
  // The winner must be an "ok" measurement of its own backend.
  EXPECT_FAILS_WITH(
      edited("\"backend\": \"triton\",\n          \"status\"", "\"status\""),
      "entries[0].winner: f_candidate_1 (candidate 1, triton) "
      "is not an \"ok\" measurement");
  EXPECT_FAILS_WITH(edited("\"backend\": \"triton\"", "\"backend\": 3"),
                    "entries[0].winner.backend: expected a string");
  // A Triton winner comes with the PTX winner a bundle takes, and only
  // then.
  EXPECT_FAILS_WITH(edited("\"ptx_winner\"", "\"ptx_winner_\""),
                    "entries[0]: unknown field \"ptx_winner_\"");
  TuningEntry noPtx = makeTritonEntry();
  noPtx.ptxWinner.reset();
  EXPECT_FAILS_WITH(parseTuningDatabase(formatTuningDatabase({noPtx})),
                    "entries[0].ptx_winner: present exactly when the winner "
                    "is not a PTX form");
  TuningEntry extra = makeEntry(makeKey("ab"));
  extra.ptxWinner = extra.winner;
  EXPECT_FAILS_WITH(parseTuningDatabase(formatTuningDatabase({extra})),
                    "entries[0].ptx_winner: present exactly when");
}

MIRAGE_TEST(TuningDatabase, ParsesACallersMeasurements) {
  Expected<std::vector<TuningMeasurement>> parsed = parseTuningMeasurements(
      R"([{"function": "f_candidate_1", "candidate": 1, "backend": "triton",
           "status": "ok", "median_us": 3.5, "cold_us": 4.0, "warm_us": 3.5,
           "max_rel_err": 0.001},
          {"function": "f", "candidate": -1, "backend": "triton",
           "status": "failed", "message": "CompilationError"}])");
  EXPECT_OK(parsed);
  if (parsed) {
    EXPECT_EQ(parsed->size(), size_t(2));
    EXPECT_TRUE((*parsed)[0].backend == TuningBackend::Triton &&
                (*parsed)[0].medianUs.value_or(0) == 3.5);
    EXPECT_TRUE((*parsed)[1].status == MeasurementStatus::Failed);
  }
  EXPECT_FAILS_WITH(parseTuningMeasurements("{}"),
                    "measurements: expected an array, got an object");
  EXPECT_FAILS_WITH(parseTuningMeasurements("[{"),
                    "measurements: line 1, column 3");
  EXPECT_FAILS_WITH(
      parseTuningMeasurements(R"([{"function": "f", "candidate": -1,
                                   "status": "ok"}])"),
      "measurements[0]: an \"ok\" measurement needs median_us");
}

MIRAGE_TEST(TuningDatabase, RecordsOnlyValidEntries) {
  TemporaryDirectory directory;
  TuningDatabase database((directory.path / "tuning.json").string());
  TuningEntry bad = makeEntry(makeKey("ab"));
  bad.winner.program = "[1, 2]";
  EXPECT_FAILS_WITH(database.record(bad),
                    "tuning database " + database.path() +
                        ": not recording an invalid entry: "
                        "entries[0].winner.program: expected an object, got "
                        "an array");
  bad = makeEntry("AB");
  EXPECT_FAILS_WITH(database.record(bad),
                    "entries[0].key: expected 64 lowercase hex digits");
  EXPECT_TRUE(std::filesystem::is_empty(directory.path));
}

MIRAGE_TEST(TuningDatabase, ResolvesTheDefaultPath) {
  ScopedVariable home("HOME", "/home/u");
  {
    ScopedVariable database("MIRAGE_TUNING_DB", "/data/tuning.json");
    ScopedVariable cache("XDG_CACHE_HOME", "/xdg");
    EXPECT_EQ(defaultPath(), std::string("/data/tuning.json"));
  }
  {
    ScopedVariable database("MIRAGE_TUNING_DB", "");
    ScopedVariable cache("XDG_CACHE_HOME", "/xdg");
    EXPECT_EQ(defaultPath(), std::string("/xdg/mirage/tuning.json"));
  }
  ScopedVariable database("MIRAGE_TUNING_DB", nullptr);
  for (const char *ignored :
       {"relative/cache", "", static_cast<const char *>(nullptr)}) {
    ScopedVariable cache("XDG_CACHE_HOME", ignored);
    EXPECT_EQ(defaultPath(), std::string("/home/u/.cache/mirage/tuning.json"));
  }
  ScopedVariable cache("XDG_CACHE_HOME", nullptr);
  ScopedVariable noHome("HOME", nullptr);
  EXPECT_EQ(defaultPath(),
            std::string("error: cannot locate the tuning database: set "
                        "MIRAGE_TUNING_DB (or XDG_CACHE_HOME or HOME)"));
}

MIRAGE_TEST(TuningDatabase, SummarizesEntries) {
  TuningEntry entry = makeEntry(makeKey("ab"));
  EXPECT_EQ(summarizeTuningEntry(entry),
            std::string("ab00000000000000  NVIDIA H100 80GB HBM3 (9.0, "
                        "sm_90a)  mirage 1  winner f_candidate_1 "
                        "(candidate 1)  12.50 us  2026-11-25T10:00:00Z"));
  entry = makeTritonEntry();
  EXPECT_TRUE(summarizeTuningEntry(entry).find(
                  "winner f_candidate_1 (candidate 1, triton)  10.50 us") !=
              std::string::npos);
  entry.winner = {"f", -1, 20.25, ""};
  EXPECT_EQ(summarizeTuningEntry(entry),
            std::string("ab00000000000000  NVIDIA H100 80GB HBM3 (9.0, "
                        "sm_90a)  mirage 1  winner f (as written)  20.25 us  "
                        "2026-11-25T10:00:00Z"));
  EXPECT_EQ(utcDate(0), std::string("1970-01-01T00:00:00Z"));
  EXPECT_EQ(utcDate(1795600800), std::string("2026-11-25T10:00:00Z"));
}
