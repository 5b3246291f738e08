//===- Ptx.cpp - What the runtime reads from a bundle's PTX ---------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "mirage/runtime/Ptx.h"

#include <algorithm>
#include <cctype>

using namespace mirage::runtime;

namespace {

bool isSpace(char c) { return std::isspace(static_cast<unsigned char>(c)); }

bool isNameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' ||
         c == '.';
}

/// How often `word` occurs in `text`.
size_t count(std::string_view text, std::string_view word) {
  size_t n = 0;
  for (size_t at = text.find(word); at != std::string_view::npos;
       at = text.find(word, at + word.size()))
    ++n;
  return n;
}

/// The suffix of a kernel's launch-shape constant (written by
/// convert-mirage-block-to-gpu, lib/Conversion/BlockToGPU/BlockToGPU.cpp).
constexpr std::string_view kLaunchShapeSuffix = "__launch";

/// The unsigned decimal at `text[at...]`, advancing `at`; nullopt for none
/// or one of 20 digits or more.
std::optional<uint64_t> readNumber(std::string_view text, size_t &at) {
  size_t begin = at;
  uint64_t value = 0;
  while (at < text.size() &&
         std::isdigit(static_cast<unsigned char>(text[at]))) {
    if (at - begin >= 19)
      return std::nullopt;
    value = value * 10 + uint64_t(text[at] - '0');
    ++at;
  }
  if (at == begin)
    return std::nullopt;
  return value;
}

/// The i64 values of one `.global` array declaration, `.b8 NAME[N] = {...}`
/// (little-endian bytes, as LLVM writes an i64 array; values past the list
/// are zero) or `.b64`/`.u64 NAME[N] = {...}`, starting at the element type;
/// nullopt for anything else.
std::optional<std::vector<int64_t>> readInt64Array(std::string_view text) {
  size_t bits = text.rfind(".b8", 0) == 0                                  ? 8
                : text.rfind(".b64", 0) == 0 || text.rfind(".u64", 0) == 0 ? 64
                                                                           : 0;
  size_t open = text.find('['), brace = text.find('{');
  size_t close = text.find('}');
  if (!bits || open == std::string_view::npos ||
      brace == std::string_view::npos || close == std::string_view::npos ||
      !(open < brace && brace < close))
    return std::nullopt;
  size_t at = open + 1;
  std::optional<uint64_t> declared = readNumber(text, at);
  // Launch shapes are short; the bound keeps damaged text cheap.
  constexpr uint64_t maxElements = 1 << 16;
  if (!declared || *declared > maxElements * (64 / bits))
    return std::nullopt;
  std::vector<uint64_t> listed;
  at = brace + 1;
  while (at < close) {
    while (at < close && (isSpace(text[at]) || text[at] == ','))
      ++at;
    if (at == close)
      break;
    std::optional<uint64_t> value = readNumber(text, at);
    if (!value || (bits == 8 && *value > 255))
      return std::nullopt;
    listed.push_back(*value);
  }
  if (listed.size() > *declared)
    return std::nullopt;
  listed.resize(*declared, 0);
  if (bits == 64)
    return std::vector<int64_t>(listed.begin(), listed.end());
  if (listed.size() % 8)
    return std::nullopt;
  std::vector<int64_t> values(listed.size() / 8);
  for (size_t i = 0; i < listed.size(); ++i)
    values[i / 8] =
        int64_t(uint64_t(values[i / 8]) | listed[i] << (8 * (i % 8)));
  return values;
}

/// The launch shapes of `ptx` by kernel name.
std::map<std::string, LaunchShape> scanLaunchShapes(std::string_view ptx) {
  constexpr std::string_view global = ".global";
  std::map<std::string, LaunchShape> shapes;
  for (size_t at = ptx.find(global); at != std::string_view::npos;
       at = ptx.find(global, at + global.size())) {
    size_t end = ptx.find(';', at);
    std::string_view declaration = ptx.substr(
        at, end == std::string_view::npos ? std::string_view::npos : end - at);
    size_t suffix = declaration.find(std::string(kLaunchShapeSuffix) + "[");
    if (end == std::string_view::npos || suffix == std::string_view::npos)
      continue;
    // The kernel's name runs back from the suffix to the space before it.
    size_t name = suffix;
    while (name > 0 && isNameChar(declaration[name - 1]))
      --name;
    // The element type is the last directive before the name.
    size_t type = declaration.rfind('.', name);
    if (type == std::string_view::npos)
      continue;
    std::optional<std::vector<int64_t>> values =
        readInt64Array(declaration.substr(type));
    if (!values || values->size() < 6)
      continue;
    LaunchShape shape;
    std::copy(values->begin(), values->begin() + 3, shape.grid.begin());
    std::copy(values->begin() + 3, values->begin() + 6, shape.block.begin());
    shape.argumentBytes.assign(values->begin() + 6, values->end());
    shapes[std::string(declaration.substr(name, suffix - name))] = shape;
  }
  return shapes;
}

} // namespace

std::map<std::string, PtxKernel>
mirage::runtime::scanPtxKernels(std::string_view ptx) {
  constexpr std::string_view entry = ".entry";
  std::map<std::string, PtxKernel> kernels;
  size_t at = ptx.find(entry);
  while (at != std::string_view::npos) {
    size_t name = at + entry.size();
    size_t next = ptx.find(entry, name);
    std::string_view rest =
        ptx.substr(name, next == std::string_view::npos ? std::string_view::npos
                                                        : next - name);
    at = next;
    // `.entry` must stand alone: not the head of a longer directive.
    if (rest.empty() || !isSpace(rest.front()))
      continue;
    size_t begin = 0;
    while (begin < rest.size() && isSpace(rest[begin]))
      ++begin;
    size_t end = begin;
    while (end < rest.size() && isNameChar(rest[end]))
      ++end;
    if (end == begin)
      continue;
    PtxKernel kernel;
    // The parameter list, `( ... )`, follows the name.
    size_t open = end;
    while (open < rest.size() && isSpace(rest[open]))
      ++open;
    size_t close = rest.find(')', open);
    if (open < rest.size() && rest[open] == '(' &&
        close != std::string_view::npos)
      kernel.parameters = count(rest.substr(open, close - open), ".param");
    kernel.waitsForGridDependencies =
        rest.find("griddepcontrol.wait") != std::string_view::npos;
    kernels.emplace(rest.substr(begin, end - begin), kernel);
  }
  for (auto &[name, shape] : scanLaunchShapes(ptx))
    if (auto kernel = kernels.find(name); kernel != kernels.end())
      kernel->second.launchShape = std::move(shape);
  return kernels;
}
