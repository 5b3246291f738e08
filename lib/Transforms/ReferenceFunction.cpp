//===- ReferenceFunction.cpp - Reference and candidate functions ----------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Transforms/ReferenceFunction.h"

using namespace mlir;

FailureOr<mirage::ReferenceAndCandidates>
mirage::findReferenceAndCandidates(ModuleOp module, StringRef name) {
  SmallVector<func::FuncOp> functions;
  for (auto func : module.getOps<func::FuncOp>())
    if (!func.isExternal())
      functions.push_back(func);
  if (functions.empty())
    return module.emitError("no function to check: the module needs a "
                            "reference and at least one candidate");
  func::FuncOp reference;
  if (!name.empty()) {
    auto it = llvm::find_if(
        functions, [&](func::FuncOp f) { return f.getSymName() == name; });
    if (it == functions.end())
      return module.emitError("no function named '")
             << name << "' to use as the reference";
    reference = *it;
  } else {
    auto marked = llvm::find_if(functions, [](func::FuncOp f) {
      return f->hasAttr("mirage.reference");
    });
    reference = marked != functions.end() ? *marked : functions.front();
  }
  if (functions.size() == 1)
    return reference.emitError(
        "is the only function: there is no candidate to check");
  ReferenceAndCandidates result{reference, {}};
  for (func::FuncOp function : functions)
    if (function != reference)
      result.candidates.push_back(function);
  return result;
}
