//===- TestMain.cpp - Runs the registered tests ---------------------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
//   mirage-runtime-tests                       run every test
//   mirage-runtime-tests --run NAME            run one test
//   mirage-runtime-tests --list                print the test names
//   mirage-runtime-tests --write-ctest FILE EXE
//                                              write one CTest add_test per
//                                              test, each running EXE --run
//
//===----------------------------------------------------------------------===//

#include "Testing.h"

#include <cstdio>
#include <fstream>

using namespace mirage::runtime::testing;

namespace {
int failures = 0;
} // namespace

std::vector<TestCase> &mirage::runtime::testing::registry() {
  static std::vector<TestCase> tests;
  return tests;
}

void mirage::runtime::testing::recordFailure(const char *file, int line,
                                             const std::string &message) {
  ++failures;
  std::printf("%s:%d: failure: %s\n", file, line, message.c_str());
}

static int runTests(const std::string &only) {
  int failedTests = 0, ran = 0;
  for (const TestCase &test : registry()) {
    if (!only.empty() && test.name != only)
      continue;
    ++ran;
    int before = failures;
    test.body();
    bool passed = failures == before;
    failedTests += !passed;
    std::printf("[%s] %s\n", passed ? "  OK  " : "FAILED", test.name.c_str());
  }
  if (ran == 0) {
    std::printf("no test named %s\n", only.c_str());
    return 1;
  }
  std::printf("%d passed, %d failed\n", ran - failedTests, failedTests);
  return failedTests ? 1 : 0;
}

static int writeCTestFile(const std::string &path,
                          const std::string &executable) {
  std::ofstream file(path);
  for (const TestCase &test : registry())
    file << "add_test([==[" << test.name << "]==] [==[" << executable
         << "]==] --run [==[" << test.name << "]==])\n";
  return file ? 0 : 1;
}

int main(int argc, char **argv) {
  std::string first = argc > 1 ? argv[1] : "";
  if (argc == 1)
    return runTests("");
  if (first == "--run" && argc == 3)
    return runTests(argv[2]);
  if (first == "--list" && argc == 2) {
    for (const TestCase &test : registry())
      std::printf("%s\n", test.name.c_str());
    return 0;
  }
  if (first == "--write-ctest" && argc == 4)
    return writeCTestFile(argv[2], argv[3]);
  std::fprintf(stderr,
               "usage: %s [--run NAME | --list | --write-ctest FILE "
               "EXE]\n",
               argv[0]);
  return 2;
}
