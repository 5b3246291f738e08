//===- Ptx.cpp - What the runtime reads from a bundle's PTX ---------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "mirage/runtime/Ptx.h"

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
  return kernels;
}
