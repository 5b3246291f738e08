//===- TestPrograms.cpp - Programs for the semantics unit tests -----------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "TestPrograms.h"

#include "Mirage/InitAllDialects.h"
#include "Mirage/Semantics/Import.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"

using namespace mlir;
using namespace mlir::mirage;

void sem::test::loadDialects(MLIRContext &context) {
  DialectRegistry registry;
  mirage::registerAllDialects(registry);
  registry.insert<func::FuncDialect>();
  context.appendDialectRegistry(registry);
  context.loadAllAvailableDialects();
}

std::optional<sem::Program> sem::test::parseProgram(MLIRContext &context,
                                                    StringRef source) {
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(source, &context);
  if (!module)
    return std::nullopt;
  auto funcs = module->getOps<func::FuncOp>();
  if (funcs.empty())
    return std::nullopt;
  FailureOr<Program> program = buildProgram(*funcs.begin());
  if (failed(program))
    return std::nullopt;
  return std::move(*program);
}
