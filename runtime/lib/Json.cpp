//===- Json.cpp - A small JSON reader -------------------------------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Json.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>

using namespace mirage::runtime;
using namespace mirage::runtime::json;

Value Value::makeBool(bool value) {
  Value result;
  result.valueKind = Kind::Bool;
  result.boolean = value;
  return result;
}

Value Value::makeReal(double value) {
  Value result;
  result.valueKind = Kind::Number;
  result.number = value;
  return result;
}

Value Value::makeInteger(int64_t value) {
  Value result;
  result.valueKind = Kind::Number;
  result.integral = true;
  result.integer = value;
  result.number = static_cast<double>(value);
  return result;
}

Value Value::makeString(std::string value) {
  Value result;
  result.valueKind = Kind::String;
  result.string = std::move(value);
  return result;
}

Value Value::makeArray(std::vector<Value> elements) {
  Value result;
  result.valueKind = Kind::Array;
  result.array = std::move(elements);
  return result;
}

Value Value::makeObject(std::vector<Member> members) {
  Value result;
  result.valueKind = Kind::Object;
  result.object = std::move(members);
  return result;
}

const Value *Value::find(std::string_view key) const {
  for (const Member &member : object)
    if (member.first == key)
      return &member.second;
  return nullptr;
}

std::string_view json::kindName(Value::Kind kind) {
  switch (kind) {
  case Value::Kind::Null:
    return "null";
  case Value::Kind::Bool:
    return "a boolean";
  case Value::Kind::Number:
    return "a number";
  case Value::Kind::String:
    return "a string";
  case Value::Kind::Array:
    return "an array";
  case Value::Kind::Object:
    return "an object";
  }
  return "a value";
}

namespace {

/// At most this many arrays and objects nest; deeper text is rejected
/// rather than risking the stack.
constexpr int maxDepth = 256;

/// The well-formed UTF-8 sequences of more than one byte (Unicode Table
/// 3-7) by lead byte: the range of the lead, the range of the second byte
/// (every further byte is 80..BF), and the length.
struct Utf8Sequence {
  unsigned char firstLead, lastLead, secondLow, secondHigh;
  size_t length;
};
constexpr Utf8Sequence utf8Sequences[] = {
    {0xC2, 0xDF, 0x80, 0xBF, 2}, {0xE0, 0xE0, 0xA0, 0xBF, 3},
    {0xE1, 0xEC, 0x80, 0xBF, 3}, {0xED, 0xED, 0x80, 0x9F, 3},
    {0xEE, 0xEF, 0x80, 0xBF, 3}, {0xF0, 0xF0, 0x90, 0xBF, 4},
    {0xF1, 0xF3, 0x80, 0xBF, 4}, {0xF4, 0xF4, 0x80, 0x8F, 4},
};

/// Recursive-descent parser that stops at the first error.
class Parser {
public:
  explicit Parser(std::string_view text) : text(text) {}

  Expected<Value> parseDocument() {
    skipWhitespace();
    std::optional<Value> value = parseValue(0);
    if (value) {
      skipWhitespace();
      if (position != text.size())
        fail("unexpected text after the JSON value");
    }
    if (errorMessage)
      return Error(ErrorCode::InvalidBundle, *errorMessage);
    return std::move(*value);
  }

private:
  void fail(const std::string &message) {
    if (errorMessage)
      return;
    size_t line = 1, column = 1;
    for (size_t i = 0; i < position && i < text.size(); ++i) {
      if (text[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    errorMessage = "line " + std::to_string(line) + ", column " +
                   std::to_string(column) + ": " + message;
  }

  bool atEnd() const { return position >= text.size(); }
  char peek() const { return atEnd() ? '\0' : text[position]; }

  void skipWhitespace() {
    while (!atEnd() && (peek() == ' ' || peek() == '\t' || peek() == '\n' ||
                        peek() == '\r'))
      ++position;
  }

  bool consumeWord(std::string_view word) {
    if (text.substr(position, word.size()) != word)
      return false;
    position += word.size();
    return true;
  }

  /// Parses the value at `position`, inside `depth` arrays and objects.
  std::optional<Value> parseValue(int depth) {
    switch (peek()) {
    case '{':
    case '[':
      if (depth == maxDepth) {
        fail("nesting deeper than " + std::to_string(maxDepth) + " levels");
        return std::nullopt;
      }
      return peek() == '{' ? parseObject(depth + 1) : parseArray(depth + 1);
    case '"': {
      std::optional<std::string> string = parseString();
      if (!string)
        return std::nullopt;
      return Value::makeString(std::move(*string));
    }
    case 't':
      if (consumeWord("true"))
        return Value::makeBool(true);
      break;
    case 'f':
      if (consumeWord("false"))
        return Value::makeBool(false);
      break;
    case 'n':
      if (consumeWord("null"))
        return Value();
      break;
    default:
      if (peek() == '-' || (peek() >= '0' && peek() <= '9'))
        return parseNumber();
      break;
    }
    fail(atEnd() ? "unexpected end of input, expected a value"
                 : "expected a value");
    return std::nullopt;
  }

  /// Parses the object or array at `position`; `depth` counts it and the
  /// arrays and objects around it.
  std::optional<Value> parseObject(int depth) {
    ++position; // '{'
    std::vector<Value::Member> members;
    skipWhitespace();
    if (peek() == '}') {
      ++position;
      return Value::makeObject(std::move(members));
    }
    while (true) {
      skipWhitespace();
      if (peek() != '"') {
        fail("expected a string key");
        return std::nullopt;
      }
      size_t keyPosition = position;
      std::optional<std::string> key = parseString();
      if (!key)
        return std::nullopt;
      for (const Value::Member &member : members) {
        if (member.first == *key) {
          position = keyPosition;
          fail("duplicate key \"" + *key + "\"");
          return std::nullopt;
        }
      }
      skipWhitespace();
      if (peek() != ':') {
        fail("expected ':' after an object key");
        return std::nullopt;
      }
      ++position;
      skipWhitespace();
      std::optional<Value> value = parseValue(depth);
      if (!value)
        return std::nullopt;
      members.emplace_back(std::move(*key), std::move(*value));
      skipWhitespace();
      if (peek() == ',') {
        ++position;
        continue;
      }
      if (peek() == '}') {
        ++position;
        return Value::makeObject(std::move(members));
      }
      fail("expected ',' or '}' in an object");
      return std::nullopt;
    }
  }

  std::optional<Value> parseArray(int depth) {
    ++position; // '['
    std::vector<Value> elements;
    skipWhitespace();
    if (peek() == ']') {
      ++position;
      return Value::makeArray(std::move(elements));
    }
    while (true) {
      skipWhitespace();
      std::optional<Value> value = parseValue(depth);
      if (!value)
        return std::nullopt;
      elements.push_back(std::move(*value));
      skipWhitespace();
      if (peek() == ',') {
        ++position;
        continue;
      }
      if (peek() == ']') {
        ++position;
        return Value::makeArray(std::move(elements));
      }
      fail("expected ',' or ']' in an array");
      return std::nullopt;
    }
  }

  static void appendUtf8(std::string &out, uint32_t codePoint) {
    if (codePoint < 0x80) {
      out += static_cast<char>(codePoint);
    } else if (codePoint < 0x800) {
      out += static_cast<char>(0xC0 | (codePoint >> 6));
      out += static_cast<char>(0x80 | (codePoint & 0x3F));
    } else if (codePoint < 0x10000) {
      out += static_cast<char>(0xE0 | (codePoint >> 12));
      out += static_cast<char>(0x80 | ((codePoint >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (codePoint & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (codePoint >> 18));
      out += static_cast<char>(0x80 | ((codePoint >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((codePoint >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (codePoint & 0x3F));
    }
  }

  std::optional<uint32_t> parseHex4() {
    if (text.size() - position < 4) {
      fail("truncated \\u escape");
      return std::nullopt;
    }
    uint32_t value = 0;
    for (int i = 0; i < 4; ++i) {
      char c = text[position + i];
      value <<= 4;
      if (c >= '0' && c <= '9')
        value |= c - '0';
      else if (c >= 'a' && c <= 'f')
        value |= c - 'a' + 10;
      else if (c >= 'A' && c <= 'F')
        value |= c - 'A' + 10;
      else {
        fail("invalid \\u escape");
        return std::nullopt;
      }
    }
    position += 4;
    return value;
  }

  /// The length of the well-formed UTF-8 sequence of several bytes at
  /// `position`, or 0 when there is none there.
  size_t utf8SequenceLength() const {
    auto byte = [&](size_t i) {
      return position + i < text.size()
                 ? static_cast<unsigned char>(text[position + i])
                 : 0;
    };
    for (const Utf8Sequence &sequence : utf8Sequences) {
      if (byte(0) < sequence.firstLead || byte(0) > sequence.lastLead)
        continue;
      if (byte(1) < sequence.secondLow || byte(1) > sequence.secondHigh)
        return 0;
      for (size_t i = 2; i < sequence.length; ++i)
        if (byte(i) < 0x80 || byte(i) > 0xBF)
          return 0;
      return sequence.length;
    }
    return 0;
  }

  std::optional<std::string> parseString() {
    ++position; // '"'
    std::string result;
    while (true) {
      if (atEnd()) {
        fail("unterminated string");
        return std::nullopt;
      }
      char c = text[position];
      if (c == '"') {
        ++position;
        return result;
      }
      if (static_cast<unsigned char>(c) < 0x20) {
        fail("control character in a string");
        return std::nullopt;
      }
      if (static_cast<unsigned char>(c) >= 0x80) {
        size_t length = utf8SequenceLength();
        if (!length) {
          fail("invalid UTF-8");
          return std::nullopt;
        }
        result.append(text.substr(position, length));
        position += length;
        continue;
      }
      if (c != '\\') {
        result += c;
        ++position;
        continue;
      }
      ++position;
      char escape = peek();
      ++position;
      switch (escape) {
      case '"':
      case '\\':
      case '/':
        result += escape;
        break;
      case 'b':
        result += '\b';
        break;
      case 'f':
        result += '\f';
        break;
      case 'n':
        result += '\n';
        break;
      case 'r':
        result += '\r';
        break;
      case 't':
        result += '\t';
        break;
      case 'u': {
        std::optional<uint32_t> unit = parseHex4();
        if (!unit)
          return std::nullopt;
        uint32_t codePoint = *unit;
        if (codePoint >= 0xD800 && codePoint < 0xDC00) {
          if (!consumeWord("\\u")) {
            fail("unpaired UTF-16 surrogate in \\u escape");
            return std::nullopt;
          }
          std::optional<uint32_t> low = parseHex4();
          if (!low)
            return std::nullopt;
          if (*low < 0xDC00 || *low >= 0xE000) {
            fail("unpaired UTF-16 surrogate in \\u escape");
            return std::nullopt;
          }
          codePoint = 0x10000 + ((codePoint - 0xD800) << 10) + (*low - 0xDC00);
        } else if (codePoint >= 0xDC00 && codePoint < 0xE000) {
          fail("unpaired UTF-16 surrogate in \\u escape");
          return std::nullopt;
        }
        appendUtf8(result, codePoint);
        break;
      }
      default:
        --position;
        fail("invalid escape in a string");
        return std::nullopt;
      }
    }
  }

  bool consumeDigits() {
    size_t start = position;
    while (!atEnd() && peek() >= '0' && peek() <= '9')
      ++position;
    return position != start;
  }

  std::optional<Value> parseNumber() {
    size_t start = position;
    if (peek() == '-')
      ++position;
    if (peek() == '0') {
      ++position;
    } else if (!consumeDigits()) {
      fail("invalid number");
      return std::nullopt;
    }
    bool integral = true;
    if (peek() == '.') {
      integral = false;
      ++position;
      if (!consumeDigits()) {
        fail("invalid number: digits expected after '.'");
        return std::nullopt;
      }
    }
    if (peek() == 'e' || peek() == 'E') {
      integral = false;
      ++position;
      if (peek() == '+' || peek() == '-')
        ++position;
      if (!consumeDigits()) {
        fail("invalid number: digits expected in the exponent");
        return std::nullopt;
      }
    }
    const char *first = text.data() + start;
    const char *last = text.data() + position;
    if (integral) {
      int64_t integer = 0;
      auto [end, status] = std::from_chars(first, last, integer);
      if (status == std::errc() && end == last)
        return Value::makeInteger(integer);
    }
    double real = 0;
    auto [end, status] = std::from_chars(first, last, real);
    if (status != std::errc() || end != last) {
      position = start;
      fail("number out of range");
      return std::nullopt;
    }
    return Value::makeReal(real);
  }

  std::string_view text;
  size_t position = 0;
  std::optional<std::string> errorMessage;
};

} // namespace

Expected<Value> json::parse(std::string_view text) {
  return Parser(text).parseDocument();
}

namespace {

void writeString(std::string &out, const std::string &string) {
  out += '"';
  for (char c : string) {
    switch (c) {
    case '"':
      out += "\\\"";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\r':
      out += "\\r";
      break;
    case '\t':
      out += "\\t";
      break;
    default:
      if (static_cast<unsigned char>(c) < 0x20) {
        const char *digits = "0123456789abcdef";
        out += "\\u00";
        out += digits[c >> 4];
        out += digits[c & 0xF];
      } else {
        out += c;
      }
    }
  }
  out += '"';
}

void writeNumber(std::string &out, const Value &value) {
  if (value.isInteger()) {
    out += std::to_string(value.getInteger());
    return;
  }
  double number = value.getNumber();
  if (!std::isfinite(number)) {
    out += "null";
    return;
  }
  char buffer[64];
  auto [end, status] = std::to_chars(buffer, buffer + sizeof(buffer), number);
  (void)status; // 64 characters always hold the shortest form.
  std::string_view text(buffer, end - buffer);
  out += text;
  if (text.find_first_of(".e") == std::string_view::npos)
    out += ".0";
}

bool isScalar(const Value &value) {
  return !value.isArray() && !value.isObject();
}

/// Appends `value` at nesting level `depth`.
void writeValue(std::string &out, const Value &value, Style style, int depth) {
  auto newline = [&](int level) {
    if (style == Style::Pretty)
      out += "\n" + std::string(2 * level, ' ');
  };
  switch (value.kind()) {
  case Value::Kind::Null:
    out += "null";
    return;
  case Value::Kind::Bool:
    out += value.getBool() ? "true" : "false";
    return;
  case Value::Kind::Number:
    writeNumber(out, value);
    return;
  case Value::Kind::String:
    writeString(out, value.getString());
    return;
  case Value::Kind::Array: {
    const std::vector<Value> &elements = value.getArray();
    bool oneLine = std::all_of(elements.begin(), elements.end(), isScalar);
    out += '[';
    for (size_t i = 0; i < elements.size(); ++i) {
      if (i)
        out += style == Style::Pretty && oneLine ? ", " : ",";
      if (!oneLine)
        newline(depth + 1);
      writeValue(out, elements[i], style, depth + 1);
    }
    if (!oneLine && !elements.empty())
      newline(depth);
    out += ']';
    return;
  }
  case Value::Kind::Object: {
    const std::vector<Value::Member> &members = value.getObject();
    out += '{';
    for (size_t i = 0; i < members.size(); ++i) {
      if (i)
        out += ',';
      newline(depth + 1);
      writeString(out, members[i].first);
      out += style == Style::Pretty ? ": " : ":";
      writeValue(out, members[i].second, style, depth + 1);
    }
    if (!members.empty())
      newline(depth);
    out += '}';
    return;
  }
  }
}

} // namespace

std::string json::write(const Value &value, Style style) {
  std::string out;
  writeValue(out, value, style, 0);
  return out;
}
