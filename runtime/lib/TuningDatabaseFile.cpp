//===- TuningDatabaseFile.cpp - The tuning database's file ----------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Reading, locking and atomically replacing the database file (POSIX).
//
//===----------------------------------------------------------------------===//

#include "mirage/runtime/TuningDatabase.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <utility>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace mirage::runtime;

namespace {

/// What a database whose text cannot be read as one should do.
constexpr const char *unreadableAdvice =
    "; left as it is: fix or remove the file, or empty it with `mirage-tune "
    "--clear`";
constexpr const char *keptAdvice = "; the database is left as it was";

/// A file descriptor, closed on destruction.
class FileDescriptor {
public:
  explicit FileDescriptor(int descriptor = -1) : descriptor(descriptor) {}
  FileDescriptor(FileDescriptor &&other) noexcept
      : descriptor(std::exchange(other.descriptor, -1)) {}
  FileDescriptor &operator=(FileDescriptor &&other) noexcept {
    std::swap(descriptor, other.descriptor);
    return *this;
  }
  ~FileDescriptor() {
    if (descriptor >= 0)
      ::close(descriptor);
  }

  int get() const { return descriptor; }

  /// Closes the descriptor now; returns 0 or close's errno.
  int close() {
    int result = ::close(std::exchange(descriptor, -1));
    return result == 0 ? 0 : errno;
  }

private:
  int descriptor;
};

/// The contents of a regular file.
struct RawFile {
  /// Empty when the file exceeds maxTuningDatabaseBytes.
  std::string text;
  int64_t size = 0;
};

std::string kindOfFile(mode_t mode) {
  if (S_ISDIR(mode))
    return "a directory";
  if (S_ISFIFO(mode))
    return "a FIFO";
  if (S_ISSOCK(mode))
    return "a socket";
  if (S_ISCHR(mode) || S_ISBLK(mode))
    return "a device";
  return "an unknown kind of file";
}

/// Where the database's files are: `path` with symbolic links resolved, so
/// that a link to a database is written through and its lock is shared
/// with the link's target.
std::string resolve(const std::string &path) {
  std::error_code error;
  std::filesystem::path resolved =
      std::filesystem::weakly_canonical(path, error);
  return error ? path : resolved.string();
}

/// The bytes of the file at `location`, or nothing when no file is there.
/// Errors name the file `name`.
Expected<std::optional<RawFile>> readRaw(const std::string &name,
                                         const std::string &location) {
  auto failure = [&](const std::string &problem) {
    return Error(ErrorCode::TuningDatabase,
                 "tuning database " + name + ": " + problem);
  };
  // O_NONBLOCK: opening a FIFO must not wait for a writer.
  FileDescriptor file(
      ::open(location.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
  if (file.get() < 0) {
    if (errno == ENOENT)
      return std::optional<RawFile>();
    return failure(std::string("cannot open it: ") + std::strerror(errno));
  }
  struct stat status = {};
  if (::fstat(file.get(), &status) != 0)
    return failure(std::string("cannot stat it: ") + std::strerror(errno));
  if (!S_ISREG(status.st_mode))
    return failure("not a regular file (" + kindOfFile(status.st_mode) +
                   "); left as it is: remove it or choose another database "
                   "path");
  RawFile raw;
  raw.size = status.st_size;
  char buffer[65536];
  while (raw.size <= maxTuningDatabaseBytes) {
    ssize_t count = ::read(file.get(), buffer, sizeof(buffer));
    if (count < 0 && errno == EINTR)
      continue;
    if (count < 0)
      return failure(std::string("cannot read it: ") + std::strerror(errno));
    if (count == 0)
      break;
    raw.text.append(buffer, static_cast<size_t>(count));
    // The file may have grown since fstat.
    raw.size = std::max<int64_t>(raw.size, raw.text.size());
  }
  if (raw.size > maxTuningDatabaseBytes)
    raw.text.clear();
  return std::optional<RawFile>(std::move(raw));
}

/// The entries of `raw`; errors carry only the problem.
Expected<std::vector<TuningEntry>> decode(const RawFile &raw) {
  if (raw.size > maxTuningDatabaseBytes)
    return Error(ErrorCode::TuningDatabase,
                 std::to_string(raw.size) + " bytes, more than the " +
                     std::to_string(maxTuningDatabaseBytes) +
                     " a tuning database may hold");
  return parseTuningDatabase(raw.text);
}

/// The error of a database file `name` whose text cannot be decoded.
Error unreadable(const std::string &name, const Error &problem) {
  return Error(ErrorCode::TuningDatabase, "tuning database " + name + ": " +
                                              problem.message() +
                                              unreadableAdvice);
}

/// The entries of the database at `location`, reported as `name`.
Expected<std::vector<TuningEntry>> load(const std::string &name,
                                        const std::string &location) {
  Expected<std::optional<RawFile>> raw = readRaw(name, location);
  if (!raw)
    return raw.takeError();
  if (!*raw)
    return std::vector<TuningEntry>();
  Expected<std::vector<TuningEntry>> entries = decode(**raw);
  if (!entries)
    return unreadable(name, entries.error());
  return entries;
}

/// Holds an exclusive lock on `location`.lock, creating the directory and
/// the lock file when missing. The lock file is never removed: removing it
/// would let two writers lock different files.
Expected<FileDescriptor> lock(const std::string &name,
                              const std::string &location) {
  auto failure = [&](const std::string &problem) {
    return Error(ErrorCode::TuningDatabase,
                 "tuning database " + name + ": " + problem);
  };
  std::filesystem::path directory =
      std::filesystem::path(location).parent_path();
  std::error_code error;
  if (!directory.empty())
    std::filesystem::create_directories(directory, error);
  if (error)
    return failure("cannot create the directory " + directory.string() + ": " +
                   error.message());
  std::string lockPath = location + ".lock";
  FileDescriptor file(
      ::open(lockPath.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666));
  if (file.get() < 0)
    return failure("cannot open the lock file " + lockPath + ": " +
                   std::strerror(errno));
  while (::flock(file.get(), LOCK_EX) != 0)
    if (errno != EINTR)
      return failure("cannot lock " + lockPath + ": " + std::strerror(errno));
  return file;
}

/// Writes all of `text` to `file`; returns 0 or the errno of the failure.
int writeAll(int file, const std::string &text) {
  size_t written = 0;
  while (written < text.size()) {
    ssize_t count = ::write(file, text.data() + written, text.size() - written);
    if (count < 0 && errno == EINTR)
      continue;
    if (count < 0)
      return errno;
    written += static_cast<size_t>(count);
  }
  return 0;
}

/// Replaces the file at `location` by one holding `text`: writes a fresh
/// temporary next to it, syncs it and renames it over the file. On failure
/// the file is as it was and the temporary is gone.
Error replace(const std::string &name, const std::string &location,
              const std::string &text) {
  static std::atomic<unsigned> counter{0};
  auto failure = [&](const std::string &problem) {
    return Error(ErrorCode::TuningDatabase,
                 "tuning database " + name + ": " + problem + keptAdvice);
  };
  std::string temporary;
  FileDescriptor file;
  while (file.get() < 0) {
    temporary = location + ".tmp." + std::to_string(::getpid()) + "." +
                std::to_string(counter++);
    file = FileDescriptor(::open(
        temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666));
    // EEXIST: a temporary left by a crashed process of the same id.
    if (file.get() < 0 && errno != EEXIST)
      return failure("cannot create " + temporary + ": " +
                     std::strerror(errno));
  }
  int error = writeAll(file.get(), text);
  if (!error && ::fsync(file.get()) != 0)
    error = errno;
  int closeError = file.close();
  if (!error)
    error = closeError;
  if (!error && ::rename(temporary.c_str(), location.c_str()) != 0)
    error = errno;
  if (error) {
    ::unlink(temporary.c_str());
    return failure("cannot write " + temporary + ": " + std::strerror(error));
  }
  // Make the rename itself durable; the data is safe either way.
  std::string directory = std::filesystem::path(location).parent_path();
  FileDescriptor folder(::open(directory.empty() ? "." : directory.c_str(),
                               O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (folder.get() >= 0)
    (void)::fsync(folder.get());
  return Error::success();
}

} // namespace

Expected<std::vector<TuningEntry>> TuningDatabase::entries() const {
  return load(databasePath, databasePath);
}

Expected<std::vector<TuningEntry>>
TuningDatabase::lookup(std::string_view key, std::string_view compiler,
                       int major, int minor) const {
  Expected<std::vector<TuningEntry>> all = entries();
  if (!all)
    return all.takeError();
  std::vector<TuningEntry> found;
  for (TuningEntry &entry : *all)
    if (entry.key == key && entry.compiler == compiler &&
        entry.device.major == major && entry.device.minor == minor)
      found.push_back(std::move(entry));
  return found;
}

Error TuningDatabase::record(const TuningEntry &entry) const {
  if (Expected<std::vector<TuningEntry>> valid =
          parseTuningDatabase(formatTuningDatabase({entry}));
      !valid)
    return Error(
        ErrorCode::TuningDatabase,
        "tuning database " + databasePath +
            ": not recording an invalid entry: " + valid.error().message());
  std::string location = resolve(databasePath);
  Expected<FileDescriptor> held = lock(databasePath, location);
  if (!held)
    return held.takeError();
  Expected<std::vector<TuningEntry>> stored = load(databasePath, location);
  if (!stored)
    return stored.takeError();
  bool replaced = false;
  for (TuningEntry &old : *stored)
    if (old.sameIdentity(entry)) {
      old = entry;
      replaced = true;
    }
  if (!replaced)
    stored->push_back(entry);
  std::string text = formatTuningDatabase(*stored);
  if (int64_t(text.size()) > maxTuningDatabaseBytes)
    return Error(ErrorCode::TuningDatabase,
                 "tuning database " + databasePath +
                     ": recording the entry would make the file " +
                     std::to_string(text.size()) + " bytes, more than the " +
                     std::to_string(maxTuningDatabaseBytes) +
                     " a tuning database may hold" + keptAdvice +
                     " (remove old entries with `mirage-tune --clear --key "
                     "PREFIX`)");
  return replace(databasePath, location, text);
}

Expected<ClearResult> TuningDatabase::clear(std::string_view keyPrefix) const {
  std::string location = resolve(databasePath);
  // Without a file there is nothing to clear, nor a directory to create.
  Expected<std::optional<RawFile>> before = readRaw(databasePath, location);
  if (!before)
    return before.takeError();
  if (!*before)
    return ClearResult();
  Expected<FileDescriptor> held = lock(databasePath, location);
  if (!held)
    return held.takeError();
  Expected<std::optional<RawFile>> raw = readRaw(databasePath, location);
  if (!raw)
    return raw.takeError();
  if (!*raw)
    return ClearResult();
  ClearResult result;
  std::vector<TuningEntry> kept;
  Expected<std::vector<TuningEntry>> stored = decode(**raw);
  if (!stored) {
    if (!keyPrefix.empty())
      return unreadable(databasePath, stored.error());
    result.replacedUnreadable = stored.error().message();
  } else {
    for (TuningEntry &entry : *stored) {
      if (entry.key.compare(0, keyPrefix.size(), keyPrefix) == 0)
        ++result.removed;
      else
        kept.push_back(std::move(entry));
    }
    if (result.removed == 0)
      return result;
  }
  if (Error error = replace(databasePath, location, formatTuningDatabase(kept)))
    return error;
  return result;
}
