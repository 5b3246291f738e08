//===- Error.h - Errors of the bundle runtime -------------------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The runtime reports failures as values, never by aborting: `Error` is a
// message with a category, and `Expected<T>` holds either a value or an
// Error. They follow LLVM's conventions (an Error converts to true when it
// holds a failure) without LLVM's checked-destruction machinery.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_RUNTIME_ERROR_H
#define MIRAGE_RUNTIME_ERROR_H

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace mirage::runtime {

/// What went wrong, in categories a caller may act on differently. The
/// values are the status codes of the C API.
enum class ErrorCode {
  /// The caller's arguments do not match what the function expects.
  InvalidArgument = 1,
  /// The bundle on disk is unreadable, malformed, or unfit for the device.
  InvalidBundle = 2,
  /// A CUDA driver call failed.
  Driver = 3,
  /// The tuning database cannot be read or written.
  TuningDatabase = 4,
};

/// The outcome of an operation without a value: success, or a failure with
/// a human-readable message.
class [[nodiscard]] Error {
public:
  /// Returns the success value.
  static Error success() { return Error(); }

  /// Creates a failure.
  Error(ErrorCode code, std::string message)
      : failed(true), errorCode(code), text(std::move(message)) {}

  /// True when this holds a failure (so `if (Error e = f()) return e;`).
  explicit operator bool() const { return failed; }

  /// The failure's category; only meaningful for a failure.
  ErrorCode code() const { return errorCode; }

  /// The failure's message; empty for success.
  const std::string &message() const { return text; }

private:
  Error() = default;

  bool failed = false;
  ErrorCode errorCode = ErrorCode::InvalidArgument;
  std::string text;
};

/// Either a value of type T or a failure.
template <typename T> class [[nodiscard]] Expected {
public:
  /// Holds a value.
  Expected(T value) : storage(std::move(value)) {}

  /// Holds a failure; `error` must not be success.
  Expected(Error error) : storage(std::move(error)) {
    assert(std::get<Error>(storage) && "Expected built from success");
  }

  /// True when this holds a value.
  explicit operator bool() const { return std::holds_alternative<T>(storage); }

  T &operator*() { return std::get<T>(storage); }
  const T &operator*() const { return std::get<T>(storage); }
  T *operator->() { return &std::get<T>(storage); }
  const T *operator->() const { return &std::get<T>(storage); }

  /// The failure; only valid when this holds no value.
  const Error &error() const { return std::get<Error>(storage); }

  /// Moves the failure out, or returns success when this holds a value.
  Error takeError() {
    if (*this)
      return Error::success();
    return std::move(std::get<Error>(storage));
  }

private:
  std::variant<T, Error> storage;
};

} // namespace mirage::runtime

#endif // MIRAGE_RUNTIME_ERROR_H
