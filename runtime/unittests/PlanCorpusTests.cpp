//===- PlanCorpusTests.cpp - The plan corpus both readers share -----------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// runtime/test/plans/corpus holds valid and damaged plan.json texts, and
// runtime/test/plans/verdicts.txt the verdict each must get (both written by
// make-damaged-plans.py, docs/Runtime.md). parsePlan must give every text its
// verdict, as mirage.plan's parse_plan must (python/test/test_plan_corpus.py),
// so the two readers accept the same plans and report each fault at the
// same field.
//
//===----------------------------------------------------------------------===//

#include "Testing.h"

#include "mirage/runtime/Plan.h"

#include <regex>
#include <set>

using namespace mirage::runtime;
namespace fs = std::filesystem;

namespace {

const fs::path plans = MIRAGE_RUNTIME_TEST_PLANS;

/// One line of verdicts.txt: "NAME accept" or "NAME reject WHERE".
struct Verdict {
  std::string name;
  /// Empty for a valid plan; else where its fault is reported: a field
  /// path, "." for the document, "json" for the JSON text.
  std::string where;
};

std::vector<Verdict> readVerdicts() {
  std::vector<Verdict> verdicts;
  std::ifstream file(plans / "verdicts.txt");
  std::string line;
  while (std::getline(file, line)) {
    std::istringstream fields(line);
    Verdict verdict;
    std::string outcome;
    fields >> verdict.name >> outcome >> verdict.where;
    if (outcome != (verdict.where.empty() ? "accept" : "reject"))
      ::mirage::runtime::testing::recordFailure(
          __FILE__, __LINE__, "malformed verdicts.txt line: " + line);
    verdicts.push_back(verdict);
  }
  return verdicts;
}

std::string readPlanText(const std::string &name) {
  std::ifstream file(plans / "corpus" / (name + ".json"), std::ios::binary);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

/// Whether the failure `message` reports its fault at `where`.
bool reportsAt(const std::string &message, const std::string &where) {
  if (where == "json")
    return std::regex_search(
        message, std::regex("^plan\\.json: line [0-9]+, column [0-9]+: "));
  if (where == ".")
    return std::regex_search(
        message, std::regex("^plan\\.json: (missing field|unknown field|"
                            "expected an object)"));
  return message.rfind("plan.json: " + where + ": ", 0) == 0;
}

} // namespace

MIRAGE_TEST(PlanCorpus, GivesEveryPlanItsVerdict) {
  std::vector<Verdict> verdicts = readVerdicts();
  size_t damaged = 0;
  for (const Verdict &verdict : verdicts) {
    Expected<Plan> plan = parsePlan(readPlanText(verdict.name));
    damaged += !verdict.where.empty();
    std::string problem;
    if (plan && !verdict.where.empty())
      problem = "accepted, expected a fault at " + verdict.where;
    else if (!plan && verdict.where.empty())
      problem = "rejected: " + plan.error().message();
    else if (!plan && !reportsAt(plan.error().message(), verdict.where))
      problem = "expected a fault at " + verdict.where +
                ", got: " + plan.error().message();
    if (!problem.empty())
      ::mirage::runtime::testing::recordFailure(__FILE__, __LINE__,
                                                verdict.name + ": " + problem);
  }
  EXPECT_TRUE(damaged >= 200);
}

MIRAGE_TEST(PlanCorpus, HasAVerdictForEveryPlan) {
  std::set<std::string> listed, present;
  for (const Verdict &verdict : readVerdicts())
    listed.insert(verdict.name + ".json");
  for (const fs::directory_entry &entry :
       fs::directory_iterator(plans / "corpus"))
    present.insert(entry.path().filename().string());
  EXPECT_TRUE(!listed.empty());
  EXPECT_TRUE(listed == present);
}
