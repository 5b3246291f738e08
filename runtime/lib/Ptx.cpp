//===- Ptx.cpp - What the runtime reads from a bundle's PTX ---------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "mirage/runtime/Ptx.h"

#include <cctype>

using namespace mirage::runtime;

std::set<std::string>
mirage::runtime::findGridDependentKernels(std::string_view ptx) {
  constexpr std::string_view entry = ".entry", wait = "griddepcontrol.wait";
  std::set<std::string> kernels;
  size_t at = ptx.find(entry);
  while (at != std::string_view::npos) {
    size_t name = at + entry.size();
    size_t next = ptx.find(entry, name);
    // `.entry` must stand alone: not the tail of a longer directive.
    if (name < ptx.size() &&
        std::isspace(static_cast<unsigned char>(ptx[name]))) {
      while (name < ptx.size() &&
             std::isspace(static_cast<unsigned char>(ptx[name])))
        ++name;
      size_t end = name;
      while (end < ptx.size() &&
             (std::isalnum(static_cast<unsigned char>(ptx[end])) ||
              ptx[end] == '_' || ptx[end] == '$' || ptx[end] == '.'))
        ++end;
      std::string_view body = ptx.substr(end, next == std::string_view::npos
                                                  ? std::string_view::npos
                                                  : next - end);
      if (end > name && body.find(wait) != std::string_view::npos)
        kernels.emplace(ptx.substr(name, end - name));
    }
    at = next;
  }
  return kernels;
}
