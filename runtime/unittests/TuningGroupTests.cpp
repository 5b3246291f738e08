//===- TuningGroupTests.cpp - Tests of grouping functions by tuning key ---===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Testing.h"

#include "mirage/runtime/TuningGroup.h"

using namespace mirage::runtime;

namespace {

const std::string keyA(64, 'a');
const std::string keyB = std::string(63, 'b') + "0";

/// One function of a test plan: inputs `inputs` (f16 [4, 8] each unless
/// `dtype` or `shape` say otherwise), one output like the first input, and
/// a tuning object when `key` is not empty.
struct FunctionText {
  std::string name;
  std::string key;
  int candidate = -1;
  std::string compiler = "mirage 1";
  int inputs = 2;
  std::string dtype = "f16";
  std::string shape = "[4, 8]";
};

std::string tensorText(const FunctionText &function) {
  std::string strides = function.shape == "[4, 8]" ? "[8, 1]" : "[1]";
  return R"({"shape": )" + function.shape + R"(, "dtype": ")" + function.dtype +
         R"(", "strides": )" + strides + "}";
}

std::string planText(const std::vector<FunctionText> &functions) {
  std::string text = R"({"format": "mirage-bundle", "version": 1,)"
                     R"( "ptx": {"sm_90a": "sm_90a.ptx"}, "functions": [)";
  for (size_t f = 0; f < functions.size(); ++f) {
    const FunctionText &function = functions[f];
    std::string inputs;
    for (int i = 0; i < function.inputs; ++i)
      inputs += (i ? ", " : "") + tensorText(function);
    text += (f ? ", " : "") + std::string(R"({"name": ")") + function.name +
            R"(", "inputs": [)" + inputs + R"(], "outputs": [)" +
            tensorText(function) +
            R"(], "buffers": [], "launches": [{"kernel": "k",)"
            R"( "grid": [1, 1, 1], "block": [32, 1, 1], "cluster": [1, 1, 1],)"
            R"( "non_portable_cluster": false, "shared_memory": 0,)"
            R"( "args": [{"kind": "output", "index": 0}]}])";
    if (!function.key.empty())
      text += R"(, "tuning": {"key": ")" + function.key +
              R"(", "compiler": ")" + function.compiler +
              R"(", "candidate": )" + std::to_string(function.candidate) + "}";
    text += "}";
  }
  return text + "]}";
}

/// The tuning groups of a plan of `functions`.
Expected<std::vector<TuningGroup>>
groupsOf(const std::vector<FunctionText> &functions, Plan &plan) {
  Expected<Plan> parsed = parsePlan(planText(functions));
  if (!parsed)
    return parsed.takeError();
  plan = std::move(*parsed);
  return groupTuningFunctions(plan);
}

Expected<std::vector<TuningGroup>>
groupsOf(const std::vector<FunctionText> &functions) {
  static Plan plan;
  return groupsOf(functions, plan);
}

} // namespace

MIRAGE_TEST(TuningGroup, GroupsFunctionsByKey) {
  Plan plan;
  Expected<std::vector<TuningGroup>> groups =
      groupsOf({{"plain", ""},
                {"b_candidate_1", keyB, 1},
                {"a", keyA, -1},
                {"b_candidate_0", keyB, 0},
                {"a_candidate_0", keyA, 0},
                {"b", keyB, -1}},
               plan);
  EXPECT_OK(groups);
  if (!groups)
    return;
  EXPECT_EQ(groups->size(), size_t(2));
  if (groups->size() != 2)
    return;
  const TuningGroup &b = (*groups)[0];
  EXPECT_EQ(b.key, keyB);
  EXPECT_EQ(b.compiler, std::string("mirage 1"));
  EXPECT_EQ(b.asWritten->name, std::string("b"));
  EXPECT_EQ(b.candidates.size(), size_t(2));
  EXPECT_EQ(b.candidates[0]->name, std::string("b_candidate_0"));
  EXPECT_EQ(b.candidates[1]->name, std::string("b_candidate_1"));
  const TuningGroup &a = (*groups)[1];
  EXPECT_EQ(a.asWritten->name, std::string("a"));
  EXPECT_EQ(a.candidates.size(), size_t(1));
  EXPECT_TRUE(a.asWritten == &plan.functions[2]);
}

MIRAGE_TEST(TuningGroup, AcceptsPlansWithoutTuning) {
  Expected<std::vector<TuningGroup>> groups = groupsOf({{"plain", ""}});
  EXPECT_TRUE(groups && groups->empty());
  Expected<std::vector<TuningGroup>> alone = groupsOf({{"a", keyA, -1}});
  EXPECT_TRUE(alone && alone->size() == 1 && (*alone)[0].candidates.empty());
}

MIRAGE_TEST(TuningGroup, RejectsGroupsWithoutOneProgramAsWritten) {
  EXPECT_FAILS_WITH(
      groupsOf({{"a0", keyA, 0}, {"a1", keyA, 1}}),
      "plan.json: tuning group " + keyA +
          ": no function is the program as written (candidate -1); the "
          "group has a0, a1");
  EXPECT_FAILS_WITH(
      groupsOf({{"a", keyA, -1}, {"a0", keyA, 0}, {"again", keyA, -1}}),
      "plan.json: functions[2].tuning.candidate: again and a are both "
      "candidate -1 of tuning group " +
          keyA);
  EXPECT_FAILS_WITH(
      groupsOf({{"a", keyA, -1}, {"a0", keyA, 3}, {"a1", keyA, 3}}),
      "plan.json: functions[2].tuning.candidate: a1 and a0 are both "
      "candidate 3 of tuning group " +
          keyA);
}

MIRAGE_TEST(TuningGroup, RejectsDifferentCompilers) {
  FunctionText other{"a0", keyA, 0};
  other.compiler = "mirage 2";
  EXPECT_FAILS_WITH(groupsOf({{"a", keyA, -1}, other}),
                    "plan.json: functions[1].tuning.compiler: \"mirage 2\" "
                    "differs from \"mirage 1\" of a, the program as written "
                    "of tuning group " +
                        keyA);
}

MIRAGE_TEST(TuningGroup, RejectsDifferentSignatures) {
  FunctionText dtype{"a0", keyA, 0};
  dtype.dtype = "bf16";
  EXPECT_FAILS_WITH(groupsOf({{"a", keyA, -1}, dtype}),
                    "plan.json: functions[1].inputs[0]: bf16 [4, 8] differs "
                    "from f16 [4, 8] of a, the program as written of tuning "
                    "group " +
                        keyA);
  FunctionText shape{"a0", keyA, 0};
  shape.shape = "[32]";
  EXPECT_FAILS_WITH(groupsOf({shape, {"a", keyA, -1}}),
                    "plan.json: functions[0].inputs[0]: f16 [32] differs "
                    "from f16 [4, 8] of a");
  FunctionText count{"a0", keyA, 0};
  count.inputs = 3;
  EXPECT_FAILS_WITH(groupsOf({{"a", keyA, -1}, count}),
                    "plan.json: functions[1].inputs: 3 tensors differ from "
                    "the 2 of a, the program as written of tuning group " +
                        keyA);
}

MIRAGE_TEST(TuningGroup, GroupsTheTestBundle) {
  Expected<Plan> plan =
      readPlan(std::string(MIRAGE_RUNTIME_TEST_BUNDLES) + "/tuning_mean");
  EXPECT_OK(plan);
  if (!plan)
    return;
  Expected<std::vector<TuningGroup>> groups = groupTuningFunctions(*plan);
  EXPECT_TRUE(groups && groups->size() == 1);
  if (!groups || groups->size() != 1)
    return;
  const TuningGroup &group = (*groups)[0];
  EXPECT_EQ(group.compiler, std::string("hand-written"));
  EXPECT_EQ(group.asWritten->name, std::string("mean"));
  EXPECT_EQ(group.candidates.size(), size_t(3));
  EXPECT_TRUE(!group.asWritten->program.empty() &&
              !group.candidates[1]->program.empty() &&
              group.candidates[2]->program.empty());
}
