//===- TuningGroup.cpp - The tuning groups of a plan ----------------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "mirage/runtime/TuningGroup.h"

#include <map>

using namespace mirage::runtime;

namespace {

std::string describe(const TensorType &tensor) {
  return std::string(dtypeName(tensor.dtype)) + " " + formatList(tensor.shape);
}

/// Checks one group's functions, in plan order, and fills in its program
/// as written and its candidates.
class GroupChecker {
public:
  GroupChecker(const Plan &plan, TuningGroup &group)
      : plan(plan), group(group), groupText("tuning group " + group.key) {}

  Error check(const std::vector<const Function *> &members) {
    std::map<int64_t, const Function *> byCandidate;
    for (const Function *function : members) {
      int64_t candidate = function->tuning->candidate;
      auto [entry, added] = byCandidate.emplace(candidate, function);
      if (!added)
        return fail(path(*function) + ".tuning.candidate",
                    function->name + " and " + entry->second->name +
                        " are both candidate " + std::to_string(candidate) +
                        " of " + groupText);
    }
    if (!byCandidate.count(-1)) {
      std::string names;
      for (const Function *function : members)
        names += (names.empty() ? "" : ", ") + function->name;
      return Error(ErrorCode::InvalidBundle,
                   "plan.json: " + groupText +
                       ": no function is the program as written (candidate "
                       "-1); the group has " +
                       names);
    }
    group.asWritten = byCandidate.at(-1);
    group.compiler = group.asWritten->tuning->compiler;
    for (const auto &[candidate, function] : byCandidate)
      if (candidate != -1)
        group.candidates.push_back(function);
    for (const Function *function : members)
      if (Error error = checkAgainstAsWritten(*function))
        return error;
    return Error::success();
  }

private:
  std::string path(const Function &function) const {
    return "functions[" + std::to_string(&function - plan.functions.data()) +
           "]";
  }

  Error fail(const std::string &path, const std::string &message) const {
    return Error(ErrorCode::InvalidBundle,
                 "plan.json: " + path + ": " + message);
  }

  /// The end of a message about a difference from the program as written.
  std::string ofAsWritten() const {
    return group.asWritten->name + ", the program as written of " + groupText;
  }

  Error checkAgainstAsWritten(const Function &function) const {
    if (function.tuning->compiler != group.compiler)
      return fail(path(function) + ".tuning.compiler",
                  "\"" + function.tuning->compiler + "\" differs from \"" +
                      group.compiler + "\" of " + ofAsWritten());
    if (Error error = checkTensors(function, "inputs", function.inputs,
                                   group.asWritten->inputs))
      return error;
    return checkTensors(function, "outputs", function.outputs,
                        group.asWritten->outputs);
  }

  Error checkTensors(const Function &function, const std::string &kind,
                     const std::vector<TensorType> &tensors,
                     const std::vector<TensorType> &expected) const {
    std::string at = path(function) + "." + kind;
    if (tensors.size() != expected.size())
      return fail(at,
                  std::to_string(tensors.size()) + " tensors differ from the " +
                      std::to_string(expected.size()) + " of " + ofAsWritten());
    for (size_t i = 0; i < tensors.size(); ++i)
      if (tensors[i].dtype != expected[i].dtype ||
          tensors[i].shape != expected[i].shape)
        return fail(at + "[" + std::to_string(i) + "]",
                    describe(tensors[i]) + " differs from " +
                        describe(expected[i]) + " of " + ofAsWritten());
    return Error::success();
  }

  const Plan &plan;
  TuningGroup &group;
  std::string groupText;
};

} // namespace

Expected<std::vector<TuningGroup>>
mirage::runtime::groupTuningFunctions(const Plan &plan) {
  std::vector<TuningGroup> groups;
  std::vector<std::vector<const Function *>> members;
  std::map<std::string, size_t> indexOfKey;
  for (const Function &function : plan.functions) {
    if (!function.tuning)
      continue;
    auto [entry, added] =
        indexOfKey.emplace(function.tuning->key, groups.size());
    if (added) {
      groups.emplace_back();
      groups.back().key = function.tuning->key;
      members.emplace_back();
    }
    members[entry->second].push_back(&function);
  }
  for (size_t g = 0; g < groups.size(); ++g)
    if (Error error = GroupChecker(plan, groups[g]).check(members[g]))
      return error;
  return groups;
}
