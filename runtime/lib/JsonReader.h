//===- JsonReader.h - Reading JSON trees into models ------------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The checks shared by the readers of plan.json and of the tuning database:
// each records the first failure with the path of the field it concerns
// ("functions[0].launches[2].grid") and returns a harmless default, so a
// reader's structure stays linear and it reports that first failure.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_RUNTIME_LIB_JSONREADER_H
#define MIRAGE_RUNTIME_LIB_JSONREADER_H

#include "Json.h"

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mirage::runtime::json {

/// `path` followed by the member `key` ("a.b"; just "b" at the root).
std::string member(const std::string &path, std::string_view key);

/// `path` followed by the element `index` ("a[2]").
std::string indexed(const std::string &path, size_t index);

/// The base of the readers: field checks that record the first failure.
class Reader {
public:
  /// Failure messages read "<prefix><path>: <message>", e.g. prefix
  /// "plan.json: ".
  explicit Reader(std::string prefix) : prefix(std::move(prefix)) {}

  bool failed() const { return firstError.has_value(); }

  /// The first failure as an Error of `code`, or success.
  Error takeError(ErrorCode code) const;

  /// Records a failure at `path` (empty: the document) unless one was
  /// recorded before.
  void fail(const std::string &path, const std::string &message);

  /// Checks that `value` is an object, with any members.
  bool requireObject(const json::Value &value, const std::string &path);

  /// Checks that `value` is an object whose keys are all in `allowed`.
  bool checkObject(const json::Value &value, const std::string &path,
                   std::initializer_list<std::string_view> allowed);

  /// The required member `key` of the object `object` at `path`.
  const json::Value *field(const json::Value &object, const std::string &path,
                           std::string_view key);

  std::string requireString(const json::Value &value, const std::string &path);

  std::string nonEmptyString(const json::Value &value, const std::string &path);

  /// An integer (written as one) in [min, max].
  int64_t integer(const json::Value &value, const std::string &path,
                  int64_t min, int64_t max);

  /// A tuning key: 64 lowercase hex digits.
  std::string tuningKey(const json::Value &value, const std::string &path);

  /// A number (integer or real) that is at least 0.
  double nonNegativeNumber(const json::Value &value, const std::string &path);

  /// A boolean; for anything else, a failure and `otherwise`.
  bool boolean(const json::Value &value, const std::string &path,
               bool otherwise);

  const std::vector<json::Value> &array(const json::Value &value,
                                        const std::string &path);

private:
  std::string prefix;
  std::optional<std::string> firstError;
};

} // namespace mirage::runtime::json

#endif // MIRAGE_RUNTIME_LIB_JSONREADER_H
