//===- Testing.h - A minimal test harness -----------------------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Just enough of a test framework for the runtime's GPU-free tests, which
// must build where neither LLVM nor gtest is installed. Tests register
// themselves with MIRAGE_TEST; TestMain.cpp runs them and tells CTest about
// each one.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_RUNTIME_UNITTESTS_TESTING_H
#define MIRAGE_RUNTIME_UNITTESTS_TESTING_H

#include "mirage/runtime/Error.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

namespace mirage::runtime::testing {

using TestBody = void (*)();

struct TestCase {
  std::string name;
  TestBody body;
};

/// All registered tests, in registration order.
std::vector<TestCase> &registry();

/// Registers a test at static-initialisation time.
struct Registration {
  Registration(const char *name, TestBody body) {
    registry().push_back({name, body});
  }
};

/// Marks the running test failed and prints where and why.
void recordFailure(const char *file, int line, const std::string &message);

/// The message of a failure, or a note that there was none.
inline std::string failureText(const Error &error) {
  return error ? error.message() : "<success>";
}
template <typename T> std::string failureText(const Expected<T> &expected) {
  return expected ? "<success>" : expected.error().message();
}

/// True when `result` succeeded.
inline bool succeeded(const Error &error) { return !error; }
template <typename T> bool succeeded(const Expected<T> &expected) {
  return static_cast<bool>(expected);
}

/// True when `result` failed with a message containing `substring`.
inline bool failsWith(const Error &error, const std::string &substring) {
  return error && error.message().find(substring) != std::string::npos;
}
template <typename T>
bool failsWith(const Expected<T> &expected, const std::string &substring) {
  return !expected &&
         expected.error().message().find(substring) != std::string::npos;
}

/// A fresh empty directory, removed on destruction.
class TemporaryDirectory {
public:
  TemporaryDirectory() {
    static int counter = 0;
    path = std::filesystem::temp_directory_path() /
           ("mirage-runtime-test-" + std::to_string(::getpid()) + "-" +
            std::to_string(counter++));
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~TemporaryDirectory() {
    std::error_code error;
    std::filesystem::remove_all(path, error);
  }

  void write(const std::string &name, const std::string &contents) const {
    std::ofstream(path / name) << contents;
  }
  std::string string() const { return path.string(); }

  std::filesystem::path path;
};

} // namespace mirage::runtime::testing

/// Defines and registers the test `Suite.Name`.
#define MIRAGE_TEST(Suite, Name)                                               \
  static void Suite##_##Name##_body();                                         \
  static ::mirage::runtime::testing::Registration Suite##_##Name##_registered( \
      #Suite "." #Name, Suite##_##Name##_body);                                \
  static void Suite##_##Name##_body()

#define EXPECT_TRUE(condition)                                                 \
  do {                                                                         \
    if (!(condition))                                                          \
      ::mirage::runtime::testing::recordFailure(__FILE__, __LINE__,            \
                                                "expected " #condition);       \
  } while (false)

#define EXPECT_EQ(actual, expected)                                            \
  do {                                                                         \
    auto &&actualValue = (actual);                                             \
    auto &&expectedValue = (expected);                                         \
    if (!(actualValue == expectedValue)) {                                     \
      std::ostringstream message;                                              \
      message << #actual " is " << actualValue << ", expected "                \
              << expectedValue;                                                \
      ::mirage::runtime::testing::recordFailure(__FILE__, __LINE__,            \
                                                message.str());                \
    }                                                                          \
  } while (false)

/// Expects an Error or Expected to hold a value / success.
#define EXPECT_OK(result)                                                      \
  do {                                                                         \
    const auto &outcome = (result);                                            \
    if (!::mirage::runtime::testing::succeeded(outcome))                       \
      ::mirage::runtime::testing::recordFailure(                               \
          __FILE__, __LINE__,                                                  \
          "unexpected failure: " +                                             \
              ::mirage::runtime::testing::failureText(outcome));               \
  } while (false)

/// Expects an Error or Expected to fail with a message containing `text`.
#define EXPECT_FAILS_WITH(result, text)                                        \
  do {                                                                         \
    const auto &outcome = (result);                                            \
    if (!::mirage::runtime::testing::failsWith(outcome, text))                 \
      ::mirage::runtime::testing::recordFailure(                               \
          __FILE__, __LINE__,                                                  \
          std::string("expected a failure containing \"") + (text) +           \
              "\", got: " + ::mirage::runtime::testing::failureText(outcome)); \
  } while (false)

#endif // MIRAGE_RUNTIME_UNITTESTS_TESTING_H
