//===- JsonTests.cpp - Tests of the JSON reader and writer ----------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Json.h"
#include "Testing.h"

#include <cmath>

using namespace mirage::runtime;

MIRAGE_TEST(Json, ParsesNestedValues) {
  Expected<json::Value> value = json::parse(
      R"( {"a": [1, -2.5, true, false, null], "b": {"c": "d"}, "e": []} )");
  EXPECT_OK(value);
  if (!value)
    return;
  EXPECT_TRUE(value->isObject());
  const json::Value *a = value->find("a");
  EXPECT_TRUE(a && a->isArray() && a->getArray().size() == 5);
  if (!a || a->getArray().size() != 5)
    return;
  EXPECT_TRUE(a->getArray()[0].isInteger());
  EXPECT_EQ(a->getArray()[0].getInteger(), 1);
  EXPECT_TRUE(a->getArray()[1].isNumber() && !a->getArray()[1].isInteger());
  EXPECT_EQ(a->getArray()[1].getNumber(), -2.5);
  EXPECT_TRUE(a->getArray()[2].isBool() && a->getArray()[2].getBool());
  EXPECT_TRUE(a->getArray()[3].isBool() && !a->getArray()[3].getBool());
  EXPECT_TRUE(a->getArray()[4].isNull());
  const json::Value *b = value->find("b");
  EXPECT_TRUE(b && b->find("c") && b->find("c")->getString() == "d");
  EXPECT_TRUE(value->find("missing") == nullptr);
  EXPECT_EQ(value->getObject().front().first, std::string("a"));
}

MIRAGE_TEST(Json, KeepsIntegersApartFromReals) {
  Expected<json::Value> value =
      json::parse("[0, -0, 9223372036854775807, 9223372036854775808, 1e2, "
                  "1.0, -9223372036854775808]");
  EXPECT_OK(value);
  if (!value)
    return;
  const std::vector<json::Value> &elements = value->getArray();
  EXPECT_TRUE(elements[0].isInteger() && elements[1].isInteger());
  EXPECT_TRUE(elements[2].isInteger());
  EXPECT_EQ(elements[2].getInteger(), INT64_MAX);
  EXPECT_TRUE(!elements[3].isInteger() && elements[3].isNumber());
  EXPECT_TRUE(!elements[4].isInteger() && elements[4].getNumber() == 100.0);
  EXPECT_TRUE(!elements[5].isInteger());
  EXPECT_TRUE(elements[6].isInteger() && elements[6].getInteger() == INT64_MIN);
}

MIRAGE_TEST(Json, DecodesEscapes) {
  Expected<json::Value> value =
      json::parse(R"("a\"b\\c\/d\n\t\u00e9\u20ac\ud83d\ude00")");
  EXPECT_OK(value);
  if (value)
    EXPECT_EQ(value->getString(),
              std::string("a\"b\\c/d\n\t\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"));
}

MIRAGE_TEST(Json, RejectsMalformedText) {
  const std::pair<const char *, const char *> cases[] = {
      {"", "unexpected end of input"},
      {"[1, 2,]", "expected a value"},
      {"{\"a\": 1,}", "expected a string key"},
      {"{\"a\" 1}", "expected ':'"},
      {"{\"a\": 1 \"b\": 2}", "expected ',' or '}'"},
      {"[1 2]", "expected ',' or ']'"},
      {"{\"a\": 1, \"a\": 2}", "duplicate key \"a\""},
      {"\"abc", "unterminated string"},
      {"\"a\tb\"", "control character"},
      {"\"\\x\"", "invalid escape"},
      {"\"\\u12g4\"", "invalid \\u escape"},
      {"\"\\ud800\"", "unpaired UTF-16 surrogate"},
      {"\"\\udc00\"", "unpaired UTF-16 surrogate"},
      {"01", "unexpected text after the JSON value"},
      {"1.", "digits expected after '.'"},
      {"1e", "digits expected in the exponent"},
      {"-", "invalid number"},
      {"1e999", "number out of range"},
      {"tru", "expected a value"},
      {"NaN", "expected a value"},
      {"{} {}", "unexpected text after the JSON value"},
  };
  for (const auto &[text, message] : cases)
    EXPECT_FAILS_WITH(json::parse(text), message);
}

MIRAGE_TEST(Json, ReportsLineAndColumn) {
  EXPECT_FAILS_WITH(json::parse("{\n  \"a\": [1,\n   ]\n}"),
                    "line 3, column 4: expected a value");
}

MIRAGE_TEST(Json, RejectsDeepNesting) {
  EXPECT_FAILS_WITH(json::parse(std::string(100000, '[')),
                    "line 1, column 257: nesting deeper than 256 levels");
  EXPECT_OK(json::parse(std::string(256, '[') + std::string(256, ']')));
  EXPECT_OK(json::parse(std::string(256, '[') + "1" + std::string(256, ']')));
  EXPECT_FAILS_WITH(json::parse(std::string(257, '[') + std::string(257, ']')),
                    "nesting deeper than 256 levels");
}

MIRAGE_TEST(Json, RequiresUtf8) {
  Expected<json::Value> valid =
      json::parse("\"\x7f\xc2\x80\xed\x9f\xbf\xee\x80\x80\xf4\x8f\xbf\xbf\"");
  EXPECT_OK(valid);
  if (valid)
    EXPECT_EQ(valid->getString().size(), size_t(13));
  for (const char *text :
       {"\"\xe9\"", "\"\x80\"", "\"\xc0\xaf\"", "\"\xc2\"", "\"\xe0\x80\xaf\"",
        "\"\xed\xa0\x80\"", "\"\xf0\x80\x80\xaf\"", "\"\xf4\x90\x80\x80\"",
        "\"\xf5\x80\x80\x80\"", "\"\xe2\x82\""})
    EXPECT_FAILS_WITH(json::parse(text), "line 1, column 2: invalid UTF-8");
}

MIRAGE_TEST(Json, WritesCompactText) {
  Expected<json::Value> value = json::parse(
      R"( {"a": [1, -2.5, true, false, null], "b": {"c": "d\"\\\n\u0001"},)"
      R"( "e": [], "f": {}, "g": 1.0, "h": 1e300, "i": -0.0} )");
  EXPECT_OK(value);
  if (value)
    EXPECT_EQ(json::write(*value),
              std::string(R"({"a":[1,-2.5,true,false,null],)"
                          R"("b":{"c":"d\"\\\n\u0001"},"e":[],"f":{},)"
                          R"("g":1.0,"h":1e+300,"i":-0.0})"));
}

MIRAGE_TEST(Json, WritesPrettyText) {
  Expected<json::Value> value = json::parse(
      R"({"a": [9, 0], "b": [{"c": 1}, {}], "d": {"e": "f"}, "g": []})");
  EXPECT_OK(value);
  if (value)
    EXPECT_EQ(json::write(*value, json::Style::Pretty),
              std::string("{\n"
                          "  \"a\": [9, 0],\n"
                          "  \"b\": [\n"
                          "    {\n"
                          "      \"c\": 1\n"
                          "    },\n"
                          "    {}\n"
                          "  ],\n"
                          "  \"d\": {\n"
                          "    \"e\": \"f\"\n"
                          "  },\n"
                          "  \"g\": []\n"
                          "}"));
}

MIRAGE_TEST(Json, WrittenTextReadsBackTheSame) {
  const char *text =
      R"({"x": [0.1, 1e-05, 3.141592653589793, -7, 9223372036854775807],)"
      R"( "s": "\u00e9\ud83d\ude00\t", "n": [[[]], {"k": null}]})";
  Expected<json::Value> value = json::parse(text);
  EXPECT_OK(value);
  if (!value)
    return;
  for (json::Style style : {json::Style::Compact, json::Style::Pretty}) {
    std::string written = json::write(*value, style);
    Expected<json::Value> again = json::parse(written);
    EXPECT_OK(again);
    if (again)
      EXPECT_EQ(json::write(*again), json::write(*value));
  }
  const json::Value &x = *value->find("x");
  Expected<json::Value> reals = json::parse(json::write(x));
  EXPECT_TRUE(reals && !reals->getArray()[0].isInteger() &&
              reals->getArray()[0].getNumber() == 0.1 &&
              reals->getArray()[1].getNumber() == 1e-05 &&
              reals->getArray()[4].isInteger());
}

MIRAGE_TEST(Json, WritesNonFiniteRealsAsNull) {
  EXPECT_EQ(json::write(json::Value::makeReal(HUGE_VAL)), std::string("null"));
  EXPECT_EQ(json::write(json::Value::makeReal(NAN)), std::string("null"));
}
