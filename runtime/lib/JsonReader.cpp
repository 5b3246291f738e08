//===- JsonReader.cpp - Reading JSON trees into models --------------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "JsonReader.h"

#include "mirage/runtime/Plan.h"

using namespace mirage::runtime;
using namespace mirage::runtime::json;

std::string json::member(const std::string &path, std::string_view key) {
  return path.empty() ? std::string(key) : path + "." + std::string(key);
}

std::string json::indexed(const std::string &path, size_t index) {
  return path + "[" + std::to_string(index) + "]";
}

Error Reader::takeError(ErrorCode code) const {
  if (!firstError)
    return Error::success();
  return Error(code, *firstError);
}

void Reader::fail(const std::string &path, const std::string &message) {
  if (!firstError)
    firstError = prefix + (path.empty() ? "" : path + ": ") + message;
}

bool Reader::requireObject(const json::Value &value, const std::string &path) {
  if (!value.isObject())
    fail(path,
         "expected an object, got " + std::string(kindName(value.kind())));
  return value.isObject();
}

bool Reader::checkObject(const json::Value &value, const std::string &path,
                         std::initializer_list<std::string_view> allowed) {
  if (!requireObject(value, path))
    return false;
  for (const json::Value::Member &entry : value.getObject()) {
    bool known = false;
    for (std::string_view key : allowed)
      known |= entry.first == key;
    if (!known) {
      fail(path, "unknown field \"" + entry.first + "\"");
      return false;
    }
  }
  return true;
}

const json::Value *Reader::field(const json::Value &object,
                                 const std::string &path,
                                 std::string_view key) {
  const json::Value *value = object.find(key);
  if (!value)
    fail(path, "missing field \"" + std::string(key) + "\"");
  return failed() ? nullptr : value;
}

std::string Reader::requireString(const json::Value &value,
                                  const std::string &path) {
  if (!value.isString()) {
    fail(path, "expected a string, got " + std::string(kindName(value.kind())));
    return "";
  }
  return value.getString();
}

std::string Reader::nonEmptyString(const json::Value &value,
                                   const std::string &path) {
  std::string string = requireString(value, path);
  if (!failed() && string.empty())
    fail(path, "expected a non-empty string");
  return string;
}

int64_t Reader::integer(const json::Value &value, const std::string &path,
                        int64_t min, int64_t max) {
  if (!value.isInteger() || value.getInteger() < min ||
      value.getInteger() > max) {
    fail(path, "expected an integer in [" + std::to_string(min) + ", " +
                   std::to_string(max) + "]");
    return min;
  }
  return value.getInteger();
}

std::string Reader::tuningKey(const json::Value &value,
                              const std::string &path) {
  if (!value.isString() || !isTuningKey(value.getString())) {
    fail(path, "expected 64 lowercase hex digits");
    return "";
  }
  return value.getString();
}

double Reader::nonNegativeNumber(const json::Value &value,
                                 const std::string &path) {
  if (!value.isNumber() || !(value.getNumber() >= 0)) {
    fail(path, "expected a number >= 0");
    return 0;
  }
  return value.getNumber();
}

bool Reader::boolean(const json::Value &value, const std::string &path,
                     bool otherwise) {
  if (!value.isBool()) {
    fail(path, "expected true or false");
    return otherwise;
  }
  return value.getBool();
}

const std::vector<json::Value> &Reader::array(const json::Value &value,
                                              const std::string &path) {
  static const std::vector<json::Value> empty;
  if (!value.isArray()) {
    fail(path, "expected an array, got " + std::string(kindName(value.kind())));
    return empty;
  }
  return value.getArray();
}
