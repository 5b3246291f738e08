//===- Mutator.cpp - Structure-aware mutations of Mirage programs ---------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mutator.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

#include <cctype>
#include <iterator>
#include <random>

using namespace mlir::mirage::fuzz;
using llvm::StringRef;

namespace {

enum class TokenKind { Number, Word, Name, Other };

struct Token {
  TokenKind kind;
  std::string text;
};

/// Cuts `text` into numbers, words (op names, types, keywords), names
/// (`%x`, `@f`, `^bb0`, `#map`) and single other characters. In a shape such
/// as `2x4096xf16` the `x` after a number is punctuation, so that every
/// extent is a number of its own.
std::vector<Token> tokenize(StringRef text) {
  std::vector<Token> tokens;
  auto isWordChar = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
  };
  size_t i = 0;
  while (i < text.size()) {
    char c = text[i];
    size_t start = i;
    if (std::isdigit(static_cast<unsigned char>(c))) {
      while (i < text.size() &&
             std::isdigit(static_cast<unsigned char>(text[i])))
        ++i;
      tokens.push_back({TokenKind::Number, text.slice(start, i).str()});
    } else if (c == 'x' && !tokens.empty() &&
               tokens.back().kind == TokenKind::Number) {
      tokens.push_back({TokenKind::Other, "x"});
      ++i;
    } else if (c == '%' || c == '@' || c == '^' || c == '#') {
      ++i;
      while (i < text.size() && (isWordChar(text[i]) || text[i] == '$'))
        ++i;
      tokens.push_back({TokenKind::Name, text.slice(start, i).str()});
    } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      while (i < text.size() && isWordChar(text[i]))
        ++i;
      tokens.push_back({TokenKind::Word, text.slice(start, i).str()});
    } else {
      tokens.push_back({TokenKind::Other, std::string(1, c)});
      ++i;
    }
  }
  return tokens;
}

std::string join(const std::vector<Token> &tokens) {
  std::string text;
  for (const Token &token : tokens)
    text += token.text;
  return text;
}

/// Ops and attribute words that can stand for each other: a swap keeps the
/// operand count, so the program mostly still parses.
const StringRef kBinaryOps[] = {"add", "sub", "mul", "div"};
const StringRef kUnaryOps[] = {"exp",  "sqrt",   "silu",  "gelu",
                               "relu", "square", "rsqrt", "neg"};
const StringRef kAccumulators[] = {"sum", "sum_last", "rms_last", "max"};
const StringRef kElementTypes[] = {"f16", "bf16", "f32"};
const llvm::ArrayRef<StringRef> kInterchangeable[] = {
    kBinaryOps, kUnaryOps, kAccumulators, kElementTypes};

/// Extents, grid sizes and map entries a hostile program would hold: small
/// values, 2^16, 2^31 - 1, 2^31, 2^32, 2^40, 2^62 and 2^63 - 1.
constexpr uint64_t kBoundaryNumbers[] = {0,
                                         1,
                                         2,
                                         3,
                                         7,
                                         65536,
                                         2147483647ull,
                                         2147483648ull,
                                         4294967296ull,
                                         1099511627776ull,
                                         4611686018427387904ull,
                                         9223372036854775807ull};

class Mutator {
public:
  Mutator(StringRef program, llvm::ArrayRef<std::string> donors, uint64_t seed)
      : tokens(tokenize(program)), donors(donors), rng(seed) {}

  std::string run() {
    unsigned count = 1 + pick(3);
    for (unsigned i = 0; i < count; ++i)
      mutateOnce();
    return join(tokens);
  }

private:
  size_t pick(size_t n) { return n == 0 ? 0 : static_cast<size_t>(rng() % n); }

  /// The indices of the tokens `keep` accepts.
  template <typename Pred> std::vector<size_t> select(Pred keep) const {
    std::vector<size_t> indices;
    for (auto [i, token] : llvm::enumerate(tokens))
      if (keep(token))
        indices.push_back(i);
    return indices;
  }

  /// The class of kInterchangeable holding the op or word `word` (its last
  /// dotted component), or -1.
  static int classOf(StringRef word) {
    StringRef last = word.substr(word.rfind('.') + 1);
    for (auto [index, words] : llvm::enumerate(kInterchangeable))
      if (llvm::is_contained(words, last))
        return static_cast<int>(index);
    return -1;
  }

  /// `word` with its last dotted component replaced by `replacement`.
  static std::string replaceLast(StringRef word, StringRef replacement) {
    return (word.substr(0, word.rfind('.') + 1) + replacement).str();
  }

  void mutateOnce() {
    switch (pick(10)) {
    case 0:
    case 1:
      return setNumber();
    case 2:
    case 3:
      return rescaleEverywhere();
    case 4:
    case 5:
      return swapWord();
    case 6:
      return swapName();
    case 7:
      return editLines();
    case 8:
      return crossOver();
    default:
      return dropToken();
    }
  }

  /// One number set to a neighbour, a multiple or a boundary value.
  void setNumber() {
    std::vector<size_t> numbers =
        select([](const Token &t) { return t.kind == TokenKind::Number; });
    if (numbers.empty())
      return;
    Token &token = tokens[numbers[pick(numbers.size())]];
    uint64_t value = 0;
    if (!llvm::to_integer(token.text, value))
      value = 1;
    switch (pick(6)) {
    case 0:
      value += 1;
      break;
    case 1:
      value = value == 0 ? 0 : value - 1;
      break;
    case 2:
      value *= 2;
      break;
    case 3:
      value /= 2;
      break;
    default:
      value = kBoundaryNumbers[pick(std::size(kBoundaryNumbers))];
      break;
    }
    token.text = std::to_string(value);
  }

  /// Every occurrence of one number doubled or halved: extents shared by
  /// several tensors change together, so the program stays well typed more
  /// often than not.
  void rescaleEverywhere() {
    std::vector<size_t> numbers = select([](const Token &t) {
      return t.kind == TokenKind::Number && t.text.size() > 1;
    });
    if (numbers.empty())
      return;
    std::string old = tokens[numbers[pick(numbers.size())]].text;
    uint64_t value = 0;
    if (!llvm::to_integer(old, value))
      return;
    value = pick(2) ? value * 2 : std::max<uint64_t>(value / 2, 1);
    for (size_t i : numbers)
      if (tokens[i].text == old)
        tokens[i].text = std::to_string(value);
  }

  /// One op, accumulator kind or element type (or all of one element type)
  /// replaced by another of its class.
  void swapWord() {
    std::vector<size_t> words = select([](const Token &t) {
      return t.kind == TokenKind::Word && classOf(t.text) >= 0;
    });
    if (words.empty())
      return;
    size_t chosen = words[pick(words.size())];
    std::string old = tokens[chosen].text;
    llvm::ArrayRef<StringRef> choices = kInterchangeable[classOf(old)];
    StringRef replacement = choices[pick(choices.size())];
    bool everywhere = pick(2) == 0;
    for (size_t i : words)
      if (i == chosen || (everywhere && tokens[i].text == old))
        tokens[i].text = replaceLast(tokens[i].text, replacement);
  }

  /// One SSA name replaced by another of the program.
  void swapName() {
    std::vector<size_t> names = select([](const Token &t) {
      return t.kind == TokenKind::Name && StringRef(t.text).starts_with("%");
    });
    if (names.size() < 2)
      return;
    tokens[names[pick(names.size())]].text =
        tokens[names[pick(names.size())]].text;
  }

  /// The tokens of each line, newlines included.
  std::vector<std::vector<Token>> splitLines() const {
    std::vector<std::vector<Token>> lines(1);
    for (const Token &token : tokens) {
      lines.back().push_back(token);
      if (token.text == "\n")
        lines.emplace_back();
    }
    return lines;
  }

  void joinLines(const std::vector<std::vector<Token>> &lines) {
    tokens.clear();
    for (const std::vector<Token> &line : lines)
      llvm::append_range(tokens, line);
  }

  /// One line deleted, duplicated, or swapped with the next.
  void editLines() {
    std::vector<std::vector<Token>> lines = splitLines();
    size_t line = pick(lines.size());
    switch (pick(3)) {
    case 0:
      lines.erase(lines.begin() + line);
      break;
    case 1:
      lines.insert(lines.begin() + line, lines[line]);
      break;
    default:
      if (line + 1 < lines.size())
        std::swap(lines[line], lines[line + 1]);
      break;
    }
    joinLines(lines);
  }

  /// One line replaced by a line of another program.
  void crossOver() {
    if (donors.empty())
      return;
    std::vector<Token> donor = tokenize(donors[pick(donors.size())]);
    std::vector<std::vector<Token>> lines = splitLines();
    std::vector<std::vector<Token>> donorLines(1);
    for (Token &token : donor) {
      bool newline = token.text == "\n";
      donorLines.back().push_back(std::move(token));
      if (newline)
        donorLines.emplace_back();
    }
    lines[pick(lines.size())] = donorLines[pick(donorLines.size())];
    joinLines(lines);
  }

  /// One token other than white space deleted.
  void dropToken() {
    std::vector<size_t> visible = select(
        [](const Token &t) { return !StringRef(t.text).trim().empty(); });
    if (!visible.empty())
      tokens.erase(tokens.begin() + visible[pick(visible.size())]);
  }

  std::vector<Token> tokens;
  llvm::ArrayRef<std::string> donors;
  std::mt19937_64 rng;
};

} // namespace

std::string mlir::mirage::fuzz::mutateProgram(
    StringRef program, llvm::ArrayRef<std::string> donors, uint64_t seed) {
  return Mutator(program, donors, seed).run();
}
