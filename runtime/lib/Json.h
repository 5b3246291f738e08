//===- Json.h - A small JSON reader and writer ------------------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A strict RFC 8259 reader for plan.json and the tuning database: UTF-8
// text, no comments, no trailing commas, no duplicate keys, no numbers
// beyond a double, at most 256 nested arrays and objects. Numbers keep
// whether they were written as integers, so the plan reader can insist on
// integers without trusting doubles. The writer gives text the reader reads
// back as the same values.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_RUNTIME_LIB_JSON_H
#define MIRAGE_RUNTIME_LIB_JSON_H

#include "mirage/runtime/Error.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mirage::runtime::json {

/// One JSON value. Objects keep their members in the order written.
class Value {
public:
  enum class Kind { Null, Bool, Number, String, Array, Object };
  using Member = std::pair<std::string, Value>;

  /// Creates null.
  Value() = default;
  static Value makeBool(bool value);
  /// A number written with a fraction or an exponent, or too large for int64.
  static Value makeReal(double value);
  /// A number written as an integer that fits int64.
  static Value makeInteger(int64_t value);
  static Value makeString(std::string value);
  static Value makeArray(std::vector<Value> elements);
  static Value makeObject(std::vector<Member> members);

  Kind kind() const { return valueKind; }
  bool isNull() const { return valueKind == Kind::Null; }
  bool isBool() const { return valueKind == Kind::Bool; }
  bool isNumber() const { return valueKind == Kind::Number; }
  /// True for a number written as an integer that fits int64.
  bool isInteger() const { return valueKind == Kind::Number && integral; }
  bool isString() const { return valueKind == Kind::String; }
  bool isArray() const { return valueKind == Kind::Array; }
  bool isObject() const { return valueKind == Kind::Object; }

  bool getBool() const { return boolean; }
  double getNumber() const { return number; }
  int64_t getInteger() const { return integer; }
  const std::string &getString() const { return string; }
  const std::vector<Value> &getArray() const { return array; }
  const std::vector<Member> &getObject() const { return object; }

  /// The member named `key` of an object, or null when absent.
  const Value *find(std::string_view key) const;

private:
  Kind valueKind = Kind::Null;
  bool boolean = false;
  bool integral = false;
  double number = 0;
  int64_t integer = 0;
  std::string string;
  std::vector<Value> array;
  std::vector<Member> object;
};

/// The kind's name with an article, for messages ("an array", "null").
std::string_view kindName(Value::Kind kind);

/// Parses one JSON document. Failures are InvalidBundle errors whose message
/// starts with "line L, column C: ".
Expected<Value> parse(std::string_view text);

/// How `write` lays out its text.
enum class Style {
  /// No whitespace at all.
  Compact,
  /// One object member or array element per line, indented by two spaces
  /// per level; arrays of scalars only (`[9, 0]`) and empty containers stay
  /// on one line. No final newline.
  Pretty,
};

/// The JSON text of `value`. Integers are written as integers, reals in
/// their shortest form that reads back exactly, always with a fraction or
/// an exponent (so they read back as reals); non-finite reals, which JSON
/// cannot hold, are written as null. Strings are escaped as RFC 8259
/// requires and otherwise kept byte for byte.
std::string write(const Value &value, Style style = Style::Compact);

} // namespace mirage::runtime::json

#endif // MIRAGE_RUNTIME_LIB_JSON_H
