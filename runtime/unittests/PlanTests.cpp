//===- PlanTests.cpp - Tests of plan.json reading and chip choice ---------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Testing.h"

#include "mirage/runtime/Plan.h"

using namespace mirage::runtime;
using mirage::runtime::testing::TemporaryDirectory;

namespace {

/// A valid plan: two inputs, a buffer, two launches, both chips.
const char *const validPlan = R"({
  "format": "mirage-bundle",
  "version": 1,
  "ptx": {"sm_80": "sm_80.ptx", "sm_90a": "sm_90a.ptx"},
  "functions": [
    {
      "name": "gqa_bs1",
      "inputs": [
        {"shape": [2, 256, 64], "dtype": "f16", "strides": [16384, 64, 1]},
        {"shape": [2, 64, 256], "dtype": "bf16", "strides": [16384, 256, 1]}
      ],
      "outputs": [{"shape": [2, 256, 64], "dtype": "f32", "strides": [16384, 64, 1]}],
      "buffers": [{"bytes": 4194304}],
      "launches": [
        {"kernel": "gqa_bs1_kernel0", "grid": [2, 16, 1], "block": [128, 1, 1],
         "cluster": [1, 1, 1], "non_portable_cluster": false, "shared_memory": 8192,
         "args": [{"kind": "input", "index": 0}, {"kind": "input", "index": 1},
                  {"kind": "buffer", "index": 0}]},
        {"kernel": "gqa_bs1_kernel1", "grid": [2, 1, 1], "block": [256, 1, 1],
         "cluster": [1, 1, 1], "non_portable_cluster": false, "shared_memory": 65536,
         "args": [{"kind": "buffer", "index": 0}, {"kind": "output", "index": 0}]}
      ],
      "reference": {"values": [], "inputs": [], "outputs": [], "ops": []}
    }
  ]
})";

/// `text` with its one occurrence of `from` replaced by `to`.
std::string replaced(std::string text, const std::string &from,
                     const std::string &to) {
  size_t position = text.find(from);
  if (position == std::string::npos ||
      text.find(from, position + 1) != std::string::npos) {
    ::mirage::runtime::testing::recordFailure(
        __FILE__, __LINE__, "\"" + from + "\" does not occur once in the plan");
    return text;
  }
  return text.replace(position, from.size(), to);
}

/// The valid plan with one edit, parsed.
Expected<Plan> parseEdited(const std::string &from, const std::string &to) {
  return parsePlan(replaced(validPlan, from, to));
}

} // namespace

MIRAGE_TEST(Plan, ParsesEveryField) {
  Expected<Plan> plan = parsePlan(validPlan);
  EXPECT_OK(plan);
  if (!plan)
    return;
  EXPECT_EQ(plan->ptx.size(), size_t(2));
  EXPECT_EQ(plan->ptx.at("sm_90a"), std::string("sm_90a.ptx"));
  EXPECT_EQ(plan->functions.size(), size_t(1));
  const Function &function = plan->functions[0];
  EXPECT_EQ(function.name, std::string("gqa_bs1"));
  EXPECT_TRUE(function.hasReference);
  EXPECT_EQ(function.inputs.size(), size_t(2));
  EXPECT_TRUE(function.inputs[0].dtype == DType::F16);
  EXPECT_TRUE(function.inputs[1].dtype == DType::BF16);
  EXPECT_TRUE(function.outputs[0].dtype == DType::F32);
  EXPECT_EQ(formatList(function.inputs[1].shape), std::string("[2, 64, 256]"));
  EXPECT_EQ(formatList(function.inputs[1].strides),
            std::string("[16384, 256, 1]"));
  EXPECT_EQ(function.outputs[0].numBytes(), int64_t(2 * 256 * 64 * 4));
  EXPECT_EQ(function.buffers.size(), size_t(1));
  EXPECT_EQ(function.buffers[0].bytes, int64_t(4194304));
  EXPECT_EQ(function.launches.size(), size_t(2));
  const Launch &launch = function.launches[1];
  EXPECT_EQ(launch.kernel, std::string("gqa_bs1_kernel1"));
  EXPECT_EQ(launch.grid[0], 2u);
  EXPECT_EQ(launch.block[0], 256u);
  EXPECT_EQ(launch.sharedMemory, 65536u);
  EXPECT_TRUE(!launch.usesClusters() && !launch.nonPortableCluster);
  EXPECT_EQ(launch.args.size(), size_t(2));
  EXPECT_TRUE(launch.args[0].kind == ArgKind::Buffer);
  EXPECT_TRUE(launch.args[1].kind == ArgKind::Output);
}

MIRAGE_TEST(Plan, AcceptsClustersWithOnlySm90a) {
  std::string text = replaced(validPlan, R"("sm_80": "sm_80.ptx", )", "");
  text = replaced(text,
                  R"("grid": [2, 16, 1], "block": [128, 1, 1],
         "cluster": [1, 1, 1], "non_portable_cluster": false)",
                  R"("grid": [16, 16, 1], "block": [128, 1, 1],
         "cluster": [16, 1, 1], "non_portable_cluster": true)");
  Expected<Plan> plan = parsePlan(text);
  EXPECT_OK(plan);
  if (plan) {
    EXPECT_TRUE(plan->functions[0].launches[0].usesClusters());
    EXPECT_TRUE(plan->functions[0].launches[0].nonPortableCluster);
    EXPECT_EQ(plan->functions[0].launches[0].cluster[0], 16u);
  }
}

MIRAGE_TEST(Plan, ReadsSharedMemoryByChip) {
  Expected<Plan> plan =
      parseEdited(R"("shared_memory": 8192)",
                  R"("shared_memory": {"sm_80": 90112, "sm_90a": 74752})");
  EXPECT_OK(plan);
  if (!plan)
    return;
  const Launch &byChip = plan->functions[0].launches[0];
  EXPECT_EQ(byChip.getSharedMemory("sm_80"), 90112u);
  EXPECT_EQ(byChip.getSharedMemory("sm_90a"), 74752u);
  EXPECT_EQ(plan->functions[0].launches[1].getSharedMemory("sm_90a"), 65536u);
}

MIRAGE_TEST(Plan, RejectsSharedMemoryOfOtherChips) {
  const std::string launch = "functions[0].launches[0].";
  const std::string shared = R"("shared_memory": 8192)";
  EXPECT_FAILS_WITH(
      parseEdited(shared, R"("shared_memory": {"sm_90a": 74752})"),
      "plan.json: " + launch +
          "shared_memory: no bytes for sm_80, a chip of "
          "ptx");
  EXPECT_FAILS_WITH(parseEdited(shared,
                                R"("shared_memory": {"sm_80": 1, "sm_90a": 2, )"
                                R"("sm_100": 3})"),
                    "plan.json: " + launch +
                        "shared_memory: \"sm_100\" is not a chip of ptx");
  EXPECT_FAILS_WITH(
      parseEdited(shared, R"("shared_memory": {"sm_80": 1, "sm_90a": -2})"),
      "plan.json: " + launch +
          "shared_memory.sm_90a: expected an integer in [0, ");
}

MIRAGE_TEST(Plan, AcceptsAbsentReferenceAndEmptyInputs) {
  std::string text = replaced(validPlan,
                              R"(,
      "reference": {"values": [], "inputs": [], "outputs": [], "ops": []})",
                              "");
  Expected<Plan> plan = parsePlan(text);
  EXPECT_OK(plan);
  if (plan)
    EXPECT_TRUE(!plan->functions[0].hasReference);
}

MIRAGE_TEST(Plan, AcceptsAProgramObject) {
  const std::string reference = R"("reference": {)";
  EXPECT_OK(
      parseEdited(reference, R"("program": {"ops": []}, "reference": {)"));
  EXPECT_FAILS_WITH(
      parseEdited(reference, R"("program": "matmul", "reference": {)"),
      "plan.json: functions[0].program: expected an object, got a string");
}

MIRAGE_TEST(Plan, KeepsTheProgramAsText) {
  Expected<Plan> plan = parseEdited(
      R"("reference": {)",
      R"("program": {"ops": [], "value": 1.0, "name": "a\"b"}, "reference": {)");
  EXPECT_OK(plan);
  if (plan)
    EXPECT_EQ(plan->functions[0].program,
              std::string(R"({"ops":[],"value":1.0,"name":"a\"b"})"));
  Expected<Plan> without = parsePlan(validPlan);
  if (without)
    EXPECT_TRUE(without->functions[0].program.empty());
}

/// A valid tuning key: the SHA-256 of "gqa_bs1".
const std::string tuningKey =
    "7446ed43b2115da891da257184facb1933ce4a5cbd019befa5b41f6331322cc9";

/// The valid plan with `tuning` added to its function.
Expected<Plan> parseWithTuning(const std::string &tuning) {
  return parseEdited(R"("name": "gqa_bs1",)",
                     R"("name": "gqa_bs1", "tuning": )" + tuning + ",");
}

MIRAGE_TEST(Plan, ReadsTuning) {
  Expected<Plan> plan =
      parseWithTuning(R"({"key": ")" + tuningKey +
                      R"(", "compiler": "mirage 0.1+abc123", "candidate": 2})");
  EXPECT_OK(plan);
  if (plan && plan->functions[0].tuning) {
    const TuningInfo &tuning = *plan->functions[0].tuning;
    EXPECT_EQ(tuning.key, tuningKey);
    EXPECT_EQ(tuning.compiler, std::string("mirage 0.1+abc123"));
    EXPECT_EQ(tuning.candidate, int64_t(2));
  } else {
    EXPECT_TRUE(plan && plan->functions[0].tuning);
  }
  Expected<Plan> asWritten = parseWithTuning(
      R"({"key": ")" + tuningKey + R"(", "compiler": "c", "candidate": -1})");
  EXPECT_TRUE(asWritten && asWritten->functions[0].tuning &&
              asWritten->functions[0].tuning->candidate == -1);
  Expected<Plan> without = parsePlan(validPlan);
  EXPECT_TRUE(without && !without->functions[0].tuning);
  EXPECT_TRUE(isTuningKey(tuningKey));
  EXPECT_TRUE(!isTuningKey(tuningKey.substr(1)) && !isTuningKey(""));
}

MIRAGE_TEST(Plan, RejectsBadTuning) {
  const std::string at = "plan.json: functions[0].tuning";
  auto with = [&](const std::string &key, const std::string &rest) {
    return parseWithTuning(R"({"key": )" + key + rest + "}");
  };
  const std::string key = "\"" + tuningKey + "\"";
  const std::string rest = R"(, "compiler": "c", "candidate": 0)";
  EXPECT_OK(with(key, rest));
  std::string upper = tuningKey;
  upper[3] = 'D';
  for (const std::string &bad :
       {"\"" + tuningKey.substr(1) + "\"", "\"" + tuningKey + "0\"",
        "\"" + upper + "\"", "\"" + tuningKey.substr(1) + "g\"",
        std::string("7")})
    EXPECT_FAILS_WITH(with(bad, rest),
                      at + ".key: expected 64 lowercase hex digits");
  EXPECT_FAILS_WITH(with(key, R"(, "compiler": "", "candidate": 0)"),
                    at + ".compiler: expected a non-empty string");
  EXPECT_FAILS_WITH(with(key, R"(, "candidate": 0)"),
                    at + ": missing field \"compiler\"");
  for (const char *candidate : {"-2", "1.0", "\"1\"", "2147483648"})
    EXPECT_FAILS_WITH(
        with(key,
             R"(, "compiler": "c", "candidate": )" + std::string(candidate)),
        at + ".candidate: expected an integer in [-1, 2147483647]");
  EXPECT_FAILS_WITH(with(key, R"(, "compiler": "c")"),
                    at + ": missing field \"candidate\"");
  EXPECT_FAILS_WITH(with(key, rest + R"(, "rank": 1)"),
                    at + ": unknown field \"rank\"");
  EXPECT_FAILS_WITH(parseWithTuning("[]"),
                    at + ": expected an object, got an array");
}

MIRAGE_TEST(Plan, ReadsTheOverlapChoice) {
  const std::string name = R"("name": "gqa_bs1",)";
  Expected<Plan> plan =
      parseEdited(name, R"("name": "gqa_bs1", "overlap": false,)");
  EXPECT_TRUE(plan && !plan->functions[0].overlap);
  Expected<Plan> without = parsePlan(validPlan);
  EXPECT_TRUE(without && without->functions[0].overlap);
  EXPECT_FAILS_WITH(parseEdited(name, R"("name": "gqa_bs1", "overlap": 0,)"),
                    "plan.json: functions[0].overlap: expected true or false");
}

MIRAGE_TEST(Plan, RejectsCorruptJson) {
  EXPECT_FAILS_WITH(parsePlan("{\"format\": "), "plan.json: line 1, column 12");
  EXPECT_FAILS_WITH(parseEdited("\"version\": 1,", "\"version\": 1"),
                    "plan.json: line 4, column 3: expected ',' or '}'");
  EXPECT_FAILS_WITH(parsePlan("[]"), "plan.json: expected an object");
}

MIRAGE_TEST(Plan, RejectsBadHeader) {
  EXPECT_FAILS_WITH(parseEdited(R"("format": "mirage-bundle",)", ""),
                    "plan.json: missing field \"format\"");
  EXPECT_FAILS_WITH(parseEdited(R"("mirage-bundle")", R"("other")"),
                    "plan.json: format: expected \"mirage-bundle\"");
  EXPECT_FAILS_WITH(parseEdited(R"("mirage-bundle")", "7"),
                    "plan.json: format: expected a string, got a number");
  EXPECT_FAILS_WITH(parseEdited(R"("version": 1)", R"("version": 2)"),
                    "plan.json: version: unsupported version 2");
  EXPECT_FAILS_WITH(parseEdited(R"("version": 1)", R"("version": "1")"),
                    "plan.json: version: expected an integer");
  EXPECT_FAILS_WITH(parseEdited(R"("version": 1)", R"("version": 1.0)"),
                    "plan.json: version: expected an integer");
  EXPECT_FAILS_WITH(
      parseEdited(R"("version": 1,)", R"("version": 1, "extra": 0,)"),
      "plan.json: unknown field \"extra\"");
}

MIRAGE_TEST(Plan, RejectsBadPtxMap) {
  EXPECT_FAILS_WITH(
      parseEdited(R"({"sm_80": "sm_80.ptx", "sm_90a": "sm_90a.ptx"})", "{}"),
      "plan.json: ptx: expected at least one chip");
  EXPECT_FAILS_WITH(
      parseEdited(R"({"sm_80": "sm_80.ptx", "sm_90a": "sm_90a.ptx"})", "[]"),
      "plan.json: ptx: expected an object, got an array");
  EXPECT_FAILS_WITH(
      parseEdited(R"("sm_80": "sm_80.ptx")", R"("sm_75": "sm_75.ptx")"),
      "plan.json: ptx: unknown chip \"sm_75\"");
  EXPECT_FAILS_WITH(
      parseEdited(R"("sm_80": "sm_80.ptx")", R"("sm_80": "../sm_80.ptx")"),
      "plan.json: ptx.sm_80: expected a file name next to "
      "plan.json, got \"../sm_80.ptx\"");
  EXPECT_FAILS_WITH(parseEdited(R"("sm_80": "sm_80.ptx")", R"("sm_80": "")"),
                    "plan.json: ptx.sm_80: expected a non-empty string");
  EXPECT_FAILS_WITH(parseEdited(R"("sm_80": "sm_80.ptx")", R"("sm_80": 1)"),
                    "plan.json: ptx.sm_80: expected a string");
}

MIRAGE_TEST(Plan, RejectsBadFunctionList) {
  std::string function = std::string(validPlan).substr(
      std::string(validPlan).find("    {\n      \"name\""));
  function = function.substr(0, function.rfind("\n  ]"));
  EXPECT_FAILS_WITH(parsePlan(replaced(validPlan, function, "")),
                    "plan.json: functions: expected at least one function");
  EXPECT_FAILS_WITH(
      parsePlan(replaced(validPlan, function, function + ",\n" + function)),
      "plan.json: functions[1].name: duplicate function name "
      "\"gqa_bs1\"");
  EXPECT_FAILS_WITH(parseEdited(R"("name": "gqa_bs1",)", ""),
                    "plan.json: functions[0]: missing field \"name\"");
  EXPECT_FAILS_WITH(
      parseEdited(R"("name": "gqa_bs1",)", R"("name": "",)"),
      "plan.json: functions[0].name: expected a non-empty string");
  EXPECT_FAILS_WITH(
      parseEdited(R"("name": "gqa_bs1",)", R"("name": "gqa\u0000bs1",)"),
      "plan.json: functions[0].name: expected a name without NUL characters");
  EXPECT_FAILS_WITH(parseEdited(R"("name": "gqa_bs1",)",
                                R"("name": "gqa_bs1", "inline": true,)"),
                    "plan.json: functions[0]: unknown field \"inline\"");
  EXPECT_FAILS_WITH(parseEdited(R"("buffers": [{"bytes": 4194304}],)", ""),
                    "plan.json: functions[0]: missing field \"buffers\"");
  EXPECT_FAILS_WITH(
      parseEdited(
          R"("reference": {"values": [], "inputs": [], "outputs": [], "ops": []})",
          R"("reference": [])"),
      "plan.json: functions[0].reference: expected an object, got an array");
}

MIRAGE_TEST(Plan, RejectsBadTensors) {
  EXPECT_FAILS_WITH(parseEdited(R"("dtype": "bf16")", R"("dtype": "f64")"),
                    "plan.json: functions[0].inputs[1].dtype: unknown dtype "
                    "\"f64\" (expected f16, bf16 or f32)");
  EXPECT_FAILS_WITH(parseEdited(R"("dtype": "bf16")", R"("dtype": 16)"),
                    "plan.json: functions[0].inputs[1].dtype: expected a "
                    "string");
  EXPECT_FAILS_WITH(
      parseEdited(R"("shape": [2, 64, 256])", R"("shape": [2, 0, 256])"),
      "plan.json: functions[0].inputs[1].shape: expected an "
      "array of positive integers");
  EXPECT_FAILS_WITH(
      parseEdited(R"("shape": [2, 64, 256])", R"("shape": "2x64x256")"),
      "plan.json: functions[0].inputs[1].shape: expected an "
      "array, got a string");
  EXPECT_FAILS_WITH(
      parseEdited(R"("shape": [2, 64, 256])",
                  R"("shape": [65536, 65536, 65536, 65536])"),
      "plan.json: functions[0].inputs[1].shape: tensor too large");
  EXPECT_FAILS_WITH(
      parseEdited(R"("strides": [16384, 256, 1])", R"("strides": [1, 2, 128])"),
      "plan.json: functions[0].inputs[1].strides: expected the "
      "contiguous strides [16384, 256, 1]");
  EXPECT_FAILS_WITH(parseEdited(R"(, "strides": [16384, 256, 1])", ""),
                    "plan.json: functions[0].inputs[1]: missing field "
                    "\"strides\"");
  EXPECT_FAILS_WITH(
      parseEdited(R"("dtype": "f32")", R"("dtype": "f32", "layout": "row")"),
      "plan.json: functions[0].outputs[0]: unknown field "
      "\"layout\"");
  EXPECT_FAILS_WITH(
      parseEdited(
          R"([{"shape": [2, 256, 64], "dtype": "f32", "strides": [16384, 64, 1]}])",
          "[]"),
      "plan.json: functions[0].outputs: expected at least one output");
  EXPECT_FAILS_WITH(
      parseEdited(
          R"("outputs": [{"shape": [2, 256, 64], "dtype": "f32", "strides": [16384, 64, 1]}])",
          R"("outputs": {"shape": [2, 256, 64]})"),
      "plan.json: functions[0].outputs: expected an array, got an object");
}

MIRAGE_TEST(Plan, RejectsBadBuffers) {
  EXPECT_FAILS_WITH(parseEdited(R"({"bytes": 4194304})", R"({"bytes": 0})"),
                    "plan.json: functions[0].buffers[0].bytes: expected an "
                    "integer in [1, ");
  EXPECT_FAILS_WITH(parseEdited(R"({"bytes": 4194304})", R"({"bytes": 1.5})"),
                    "plan.json: functions[0].buffers[0].bytes: expected an "
                    "integer");
  EXPECT_FAILS_WITH(parseEdited(R"({"bytes": 4194304})", R"({})"),
                    "plan.json: functions[0].buffers[0]: missing field "
                    "\"bytes\"");
  EXPECT_FAILS_WITH(
      parseEdited(R"({"bytes": 4194304})", R"({"bytes": 8, "zeroed": 1})"),
      "plan.json: functions[0].buffers[0].zeroed: expected true or false");
}

MIRAGE_TEST(Plan, ReadsZeroedBuffers) {
  // A combine tail's counters: zeroed once, when the runtime allocates them.
  Expected<Plan> plan = parseEdited(R"({"bytes": 4194304})",
                                    R"({"bytes": 4194304, "zeroed": true})");
  EXPECT_OK(plan);
  if (plan)
    EXPECT_TRUE(plan->functions[0].buffers[0].zeroed);
  Expected<Plan> plain = parsePlan(validPlan);
  if (plain)
    EXPECT_TRUE(!plain->functions[0].buffers[0].zeroed);
}

MIRAGE_TEST(Plan, RejectsBadLaunchGeometry) {
  const std::string launch = "functions[0].launches[0].";
  const std::string grid = R"("grid": [2, 16, 1])";
  for (const char *bad :
       {R"("grid": [0, 16, 1])", R"("grid": [2, 16])",
        R"("grid": [2, 16, 1, 1])", R"("grid": [2, -1, 1])",
        R"("grid": [2, 16, "1"])", R"("grid": 2)", R"("grid": [2.0, 16, 1])"})
    EXPECT_FAILS_WITH(parseEdited(grid, bad),
                      "plan.json: " + launch +
                          "grid: expected 3 positive integers");
  EXPECT_FAILS_WITH(parseEdited(grid, R"("grid": [2, 70000, 1])"),
                    "plan.json: " + launch + "grid: exceeds the limits");
  const std::string block = R"("block": [128, 1, 1])";
  EXPECT_FAILS_WITH(parseEdited(block, R"("block": [128, 0, 1])"),
                    "plan.json: " + launch +
                        "block: expected 3 positive integers");
  EXPECT_FAILS_WITH(parseEdited(block, R"("block": [128, 16, 1])"),
                    "plan.json: " + launch +
                        "block: 2048 threads exceed the limit of 1024");
  EXPECT_FAILS_WITH(parseEdited(block, R"("block": [1, 1, 128])"),
                    "plan.json: " + launch + "block: exceeds the limits");
  EXPECT_FAILS_WITH(
      parseEdited(R"("shared_memory": 8192)", R"("shared_memory": -1)"),
      "plan.json: " + launch + "shared_memory: expected an integer in [0, ");
  EXPECT_FAILS_WITH(
      parseEdited(R"("kernel": "gqa_bs1_kernel0")", R"("kernel": "")"),
      "plan.json: " + launch + "kernel: expected a non-empty string");
  EXPECT_FAILS_WITH(
      parseEdited(R"("kernel": "gqa_bs1_kernel0",)",
                  R"("kernel": "k", "stream": 1,)"),
      "plan.json: functions[0].launches[0]: unknown field \"stream\"");
  EXPECT_FAILS_WITH(
      parseEdited(R"("kernel": "gqa_bs1_kernel1", "grid": [2, 1, 1],)",
                  R"("grid": [2, 1, 1],)"),
      "plan.json: functions[0].launches[1]: missing field \"kernel\"");
  std::string launches =
      std::string(validPlan).substr(std::string(validPlan).find(
          "\n        {\"kernel\": \"gqa_bs1_kernel0\""));
  launches = launches.substr(0, launches.find("\n      ],"));
  EXPECT_FAILS_WITH(parsePlan(replaced(validPlan, launches, "")),
                    "plan.json: functions[0].launches: expected at least one "
                    "launch");
}

MIRAGE_TEST(Plan, RejectsBadClusters) {
  const std::string launch = "plan.json: functions[0].launches[0].";
  const std::string cluster =
      R"("cluster": [1, 1, 1], "non_portable_cluster": false, "shared_memory": 8192)";
  EXPECT_FAILS_WITH(
      parseEdited(
          cluster,
          R"("cluster": [2, 1, 1], "non_portable_cluster": false, "shared_memory": 8192)"),
      launch + "cluster: thread-block clusters need sm_90a, but ptx also "
               "lists sm_80");
  EXPECT_FAILS_WITH(
      parseEdited(
          cluster,
          R"("cluster": [1, 3, 1], "non_portable_cluster": false, "shared_memory": 8192)"),
      launch + "cluster: [1, 3, 1] does not divide the grid [2, 16, 1]");
  EXPECT_FAILS_WITH(
      parseEdited(
          cluster,
          R"("cluster": [2, 8, 1], "non_portable_cluster": false, "shared_memory": 8192)"),
      launch + "cluster: 16 blocks exceed the portable cluster size of 8");
  EXPECT_FAILS_WITH(
      parseEdited(
          cluster,
          R"("cluster": [1, 1, 1], "non_portable_cluster": 0, "shared_memory": 8192)"),
      launch + "non_portable_cluster: expected a boolean");
}

MIRAGE_TEST(Plan, RejectsBadLaunchArgs) {
  const std::string args = "plan.json: functions[0].launches[1].args[";
  const std::string bufferArg =
      R"([{"kind": "buffer", "index": 0}, {"kind": "output", "index": 0}])";
  EXPECT_FAILS_WITH(
      parseEdited(
          bufferArg,
          R"([{"kind": "buffer", "index": 1}, {"kind": "output", "index": 0}])"),
      args + "0].index: 1 is out of range: the function has 1 buffers");
  EXPECT_FAILS_WITH(
      parseEdited(
          bufferArg,
          R"([{"kind": "buffer", "index": 0}, {"kind": "output", "index": 1}])"),
      args + "1].index: 1 is out of range: the function has 1 outputs");
  EXPECT_FAILS_WITH(
      parseEdited(
          bufferArg,
          R"([{"kind": "input", "index": 2}, {"kind": "output", "index": 0}])"),
      args + "0].index: 2 is out of range: the function has 2 inputs");
  EXPECT_FAILS_WITH(
      parseEdited(
          bufferArg,
          R"([{"kind": "input", "index": -1}, {"kind": "output", "index": 0}])"),
      args + "0].index: expected an integer in [0, ");
  EXPECT_FAILS_WITH(
      parseEdited(
          bufferArg,
          R"([{"kind": "weight", "index": 0}, {"kind": "output", "index": 0}])"),
      args + "0].kind: unknown argument kind \"weight\" (expected input, "
             "output or buffer)");
  EXPECT_FAILS_WITH(
      parseEdited(bufferArg,
                  R"([{"kind": "buffer"}, {"kind": "output", "index": 0}])"),
      args + "0]: missing field \"index\"");
  EXPECT_FAILS_WITH(
      parseEdited(
          bufferArg,
          R"([{"kind": "buffer", "index": 0, "offset": 8}, {"kind": "output", "index": 0}])"),
      args + "0]: unknown field \"offset\"");
  EXPECT_FAILS_WITH(parseEdited(bufferArg, R"({"kind": "buffer"})"),
                    "plan.json: functions[0].launches[1].args: expected an "
                    "array, got an object");
}

MIRAGE_TEST(Plan, LooksUpFunctions) {
  Expected<Plan> plan = parsePlan(validPlan);
  if (!plan) {
    EXPECT_OK(plan);
    return;
  }
  Expected<const Function *> byName = plan->lookup("gqa_bs1");
  EXPECT_TRUE(byName && (*byName)->name == "gqa_bs1");
  Expected<const Function *> only = plan->lookup("");
  EXPECT_TRUE(only && *only == &plan->functions[0]);
  EXPECT_FAILS_WITH(plan->lookup("gqa"),
                    "the bundle has no function \"gqa\" (it has: gqa_bs1)");
  plan->functions.push_back(plan->functions[0]);
  plan->functions.back().name = "second";
  EXPECT_FAILS_WITH(plan->lookup(""),
                    "the bundle has 2 functions (gqa_bs1, second); name one");
}

MIRAGE_TEST(Plan, SelectsChipByComputeCapability) {
  Expected<Plan> plan = parsePlan(validPlan);
  if (!plan) {
    EXPECT_OK(plan);
    return;
  }
  auto chipFor = [&](int major, int minor) {
    Expected<std::string> chip =
        selectChip(*plan, DeviceInfo{0, "GPU", major, minor});
    return chip ? *chip : chip.error().message();
  };
  EXPECT_EQ(chipFor(9, 0), std::string("sm_90a"));
  EXPECT_EQ(chipFor(8, 0), std::string("sm_80"));
  EXPECT_EQ(chipFor(8, 9), std::string("sm_80"));
  EXPECT_EQ(chipFor(10, 0), std::string("sm_80"));
  EXPECT_FAILS_WITH(selectChip(*plan, DeviceInfo{1, "Tesla V100", 7, 0}),
                    "device 1 (Tesla V100, compute capability 7.0) is older "
                    "than compute capability 8.0");

  DeviceInfo h100{0, "NVIDIA H100", 9, 0};
  DeviceInfo a100{0, "NVIDIA A100", 8, 0};
  EXPECT_TRUE(chipRunsOn("sm_80", h100) && chipRunsOn("sm_90a", h100));
  EXPECT_TRUE(chipRunsOn("sm_80", a100) && !chipRunsOn("sm_90a", a100));
  EXPECT_TRUE(!chipRunsOn("sm_90a", DeviceInfo{0, "B200", 10, 0}));
  Expected<std::string> forced = selectChip(*plan, h100, "sm_80");
  EXPECT_TRUE(forced && *forced == "sm_80");
  EXPECT_FAILS_WITH(selectChip(*plan, a100, "sm_90a"),
                    "device 0 (NVIDIA A100, compute capability 8.0) cannot "
                    "run sm_90a PTX");
  EXPECT_FAILS_WITH(selectChip(*plan, h100, "sm_75"),
                    "the bundle has no PTX for sm_75 (it has: sm_80, sm_90a)");

  plan->ptx.erase("sm_80");
  EXPECT_FAILS_WITH(selectChip(*plan, DeviceInfo{0, "NVIDIA A100", 8, 0}),
                    "device 0 (NVIDIA A100, compute capability 8.0) needs PTX "
                    "for sm_80, but the bundle has PTX only for sm_90a");
  plan->ptx = {{"sm_80", "sm_80.ptx"}};
  EXPECT_FAILS_WITH(selectChip(*plan, DeviceInfo{0, "NVIDIA H100", 9, 0}),
                    "device 0 (NVIDIA H100, compute capability 9.0) needs PTX "
                    "for sm_90a, but the bundle has PTX only for sm_80");
}

MIRAGE_TEST(Plan, ReadsBundleDirectories) {
  TemporaryDirectory directory;
  EXPECT_FAILS_WITH(readPlan(directory.string()),
                    "bundle " + directory.string() + ": cannot read " +
                        (directory.path / "plan.json").string());
  directory.write("plan.json", validPlan);
  EXPECT_FAILS_WITH(readPlan(directory.string()),
                    "plan.json: ptx.sm_80: file \"sm_80.ptx\" not found");
  directory.write("sm_80.ptx", "// sm_80\n");
  EXPECT_FAILS_WITH(readPlan(directory.string()),
                    "plan.json: ptx.sm_90a: file \"sm_90a.ptx\" not found");
  directory.write("sm_90a.ptx", "// sm_90a\n");
  Expected<Plan> plan = readPlan(directory.string());
  EXPECT_OK(plan);
  if (plan) {
    Expected<std::string> ptx = readPtx(directory.string(), *plan, "sm_90a");
    EXPECT_TRUE(ptx && *ptx == "// sm_90a\n");
  }
  directory.write("plan.json", "{");
  EXPECT_FAILS_WITH(readPlan(directory.string()),
                    "bundle " + directory.string() + ": plan.json: line 1");
  EXPECT_FAILS_WITH(readPlan((directory.path / "plan.json").string()),
                    "not a directory");
}

MIRAGE_TEST(Plan, ReadsTheTestBundles) {
  for (const char *name : {"scale_add", "cluster_exp"}) {
    Expected<Plan> plan =
        readPlan(std::string(MIRAGE_RUNTIME_TEST_BUNDLES) + "/" + name);
    EXPECT_OK(plan);
    if (plan)
      EXPECT_TRUE(!plan->functions.empty() && plan->functions[0].hasReference);
  }
}

MIRAGE_TEST(Plan, ParsesLibraryMatmuls) {
  Expected<Plan> plan =
      readPlan(std::string(MIRAGE_RUNTIME_TEST_BUNDLES) + "/library_matmul");
  EXPECT_OK(plan);
  if (!plan)
    return;
  const Launch &batched = plan->functions[0].launches[0];
  EXPECT_TRUE(batched.library.has_value() && batched.kernel.empty());
  if (batched.library) {
    EXPECT_EQ(batched.library->batch, int64_t(2));
    EXPECT_EQ(batched.library->m, int64_t(16));
    EXPECT_EQ(batched.library->n, int64_t(32));
    EXPECT_EQ(batched.library->k, int64_t(64));
    EXPECT_TRUE(batched.library->dtype == DType::F16);
    EXPECT_TRUE(batched.library->resultDType == DType::F32);
  }
  const Launch &second = plan->functions[1].launches[1];
  EXPECT_TRUE(second.args.size() == 3 &&
              second.args[0].kind == ArgKind::Buffer &&
              second.args[2].kind == ArgKind::Output);
}

MIRAGE_TEST(Plan, ParsesTensorMapArguments) {
  // A TMA descriptor of input 0 for the sm_90a kernels, after the buffers.
  const std::string from = R"({"kind": "buffer", "index": 0}]},)";
  auto withDescriptor = [&](const std::string &descriptor) {
    return parseEdited(from, R"({"kind": "buffer", "index": 0}, )" +
                                 descriptor + "]},");
  };
  const std::string valid =
      R"({"kind": "input", "index": 0, "chip": "sm_90a", "tensor_map": )"
      R"({"tensor": {"shape": [2, 256, 64], "dtype": "f16", )"
      R"("strides": [16384, 64, 1]}, "box": [1, 64, 64]}})";
  Expected<Plan> plan = withDescriptor(valid);
  EXPECT_OK(plan);
  if (plan) {
    const LaunchArg &arg = plan->functions[0].launches[0].args[3];
    EXPECT_EQ(arg.chip, std::string("sm_90a"));
    EXPECT_TRUE(arg.tensorMap.has_value());
    if (arg.tensorMap) {
      EXPECT_EQ(formatList(arg.tensorMap->box), std::string("[1, 64, 64]"));
      EXPECT_EQ(formatList(arg.tensorMap->tensor.shape),
                std::string("[2, 256, 64]"));
    }
    EXPECT_TRUE(!plan->functions[0].launches[0].args[0].tensorMap);
  }
  auto edited = [&](const std::string &a, const std::string &b) {
    return withDescriptor(replaced(valid, a, b));
  };
  EXPECT_FAILS_WITH(edited(R"("box": [1, 64, 64])", R"("box": [64, 64])"),
                    "has 2 dimensions for a tensor of 3");
  EXPECT_FAILS_WITH(edited(R"("box": [1, 64, 64])", R"("box": [1, 512, 64])"),
                    "tensor_map.box[1]");
  EXPECT_FAILS_WITH(edited(R"("box": [1, 64, 64])", R"("box": [1, 64, 4])"),
                    "whole 16-byte chunks");
  EXPECT_FAILS_WITH(
      edited(R"("shape": [2, 256, 64])", R"("shape": [4, 256, 64])"),
      "needs 131072 bytes, more than the 65536 of the argument");
  // A swizzled box: its rows are the swizzle's bytes (64 f16 = 128 bytes).
  Expected<Plan> swizzled = edited(R"("box": [1, 64, 64]})",
                                   R"("box": [1, 64, 64], "swizzle": 128})");
  EXPECT_OK(swizzled);
  if (swizzled && swizzled->functions[0].launches[0].args[3].tensorMap)
    EXPECT_EQ(swizzled->functions[0].launches[0].args[3].tensorMap->swizzle,
              int64_t(128));
  EXPECT_FAILS_WITH(
      edited(R"("box": [1, 64, 64]})", R"("box": [1, 64, 64], "swizzle": 1})"),
      "tensor_map.swizzle");
  EXPECT_FAILS_WITH(
      edited(R"("box": [1, 64, 64]})", R"("box": [1, 64, 64], "swizzle": 64})"),
      "must be the bytes of a row of the box");
  EXPECT_FAILS_WITH(
      edited(R"("box": [1, 64, 64]})", R"("box": [1, 64, 64], "colour": 1})"),
      "colour");
  EXPECT_FAILS_WITH(edited(R"("chip": "sm_90a")", R"("chip": 90)"), "chip");
  EXPECT_FAILS_WITH(edited(R"("chip": "sm_90a")", R"("chip": "sm_75")"),
                    "args[3].chip: \"sm_75\" is not a chip of ptx");
  // A rank-0 tensor has no rows for a box.
  EXPECT_FAILS_WITH(
      edited(R"({"shape": [2, 256, 64], "dtype": "f16", )"
             R"("strides": [16384, 64, 1]}, "box": [1, 64, 64]})",
             R"({"shape": [], "dtype": "f16", "strides": []}, "box": []})"),
      "tensor_map.tensor: has 0 dimensions (a TMA tensor has 1 to 5)");
  EXPECT_FAILS_WITH(edited(R"("box": [1, 64, 64])", R"("box": [])"),
                    "tensor_map.box: has 0 dimensions for a tensor of 3");
}

MIRAGE_TEST(Plan, RunsLibraryCallsBesideEachOtherWhereSMsWouldIdle) {
  // Input 0 times inputs 1 and 2 into buffers 0 and 1, then their sum.
  auto call = [](int64_t m, int64_t n, int64_t rhs, int64_t result) {
    Launch launch;
    launch.library = LibraryMatmul{1, m, n, 4096};
    launch.args = {
        {ArgKind::Input, 0}, {ArgKind::Input, rhs}, {ArgKind::Buffer, result}};
    return launch;
  };
  Function function;
  function.launches = {call(64, 3584, 1, 0), call(64, 64, 2, 1)};
  // A LoRA's x W and x A: 28 and 1 tiles, far from a wave.
  EXPECT_TRUE(function.canRunBesideNext(0, 132));
  EXPECT_TRUE(!function.canRunBesideNext(0, 28));
  EXPECT_TRUE(!function.canRunBesideNext(1, 132));
  // Mistral's gate and up projections at 512 tokens: 4 x 112 tiles each.
  function.launches = {call(512, 14336, 1, 0), call(512, 14336, 2, 1)};
  EXPECT_EQ(function.launches[0].library->getResultTiles(), 448);
  EXPECT_TRUE(!function.canRunBesideNext(0, 132));
  // The second reads the first's result.
  function.launches = {call(64, 3584, 1, 0), call(64, 64, 2, 1)};
  function.launches[1].args[1] = {ArgKind::Buffer, 0};
  EXPECT_TRUE(!function.canRunBesideNext(0, 132));
  // A kernel launch never runs beside anything.
  function.launches[1] = Launch{};
  function.launches[1].args = {{ArgKind::Input, 2}};
  EXPECT_TRUE(!function.canRunBesideNext(0, 132));
}

MIRAGE_TEST(Plan, KeepsCuBLASLtsFirstAlgorithmUnlessAnotherIsClearlyFaster) {
  // Timing noise of a few percent does not move the choice.
  EXPECT_EQ(chooseLibraryAlgorithm({100.0f, 97.0f, 99.0f}), 0);
  // A clearly faster algorithm wins: the fastest of those.
  EXPECT_EQ(chooseLibraryAlgorithm({100.0f, 90.0f, 80.0f}), 2);
  // Failed algorithms are never chosen; without the first, the fastest.
  EXPECT_EQ(chooseLibraryAlgorithm({-1.0f, 90.0f, 80.0f}), 2);
  EXPECT_EQ(chooseLibraryAlgorithm({100.0f, -1.0f}), 0);
  EXPECT_EQ(chooseLibraryAlgorithm({-1.0f, -1.0f}), -1);
  EXPECT_EQ(chooseLibraryAlgorithm({}), -1);
}

MIRAGE_TEST(Plan, TimesEveryPairOfAlgorithmsWithTheCallsOwnChoicesFirst) {
  // Two calls side by side: their own choices (1 and 0) first, so that
  // chooseLibraryAlgorithm keeps them unless another pair is clearly faster,
  // then every other pair once.
  std::vector<std::pair<int, int>> pairs = getLibraryAlgorithmPairs(2, 1, 3, 0);
  std::vector<std::pair<int, int>> expected = {{1, 0}, {0, 0}, {0, 1},
                                               {0, 2}, {1, 1}, {1, 2}};
  EXPECT_TRUE(pairs == expected);
  // One proposal each: nothing else to time.
  EXPECT_EQ(getLibraryAlgorithmPairs(1, 0, 1, 0).size(), 1u);
}
