//===- ProgramSchedule.cpp - Kernel schedules of a candidate --------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Search/ProgramSchedule.h"

#include "Mirage/Conversion/CodegenOptions.h"
#include "Mirage/Dialect/Kernel/Transforms/Passes.h"
#include "Mirage/Search/Materialize.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"

using namespace mlir;
using namespace mlir::mirage;
using namespace mlir::mirage::search;

KernelFacts search::getKernelFacts(kernel::GraphDefOp graph,
                                   const KernelSchedule &schedule) {
  KernelFacts facts;
  facts.threads = schedule.threads;
  facts.sharedBytes = schedule.sharedBytes;
  facts.residentBlocks = std::max<int64_t>(1, schedule.residentBlocks);
  facts.stages = schedule.stages;
  for (auto matmul : graph.getBodyBlock().getOps<block::MatmulOp>())
    facts.matmulEngines.push_back(schedule.getEngine(matmul));
  return facts;
}

std::optional<ProgramFacts> search::scheduleProgram(const sem::Program &program,
                                                    FunctionType type,
                                                    int32_t threads,
                                                    const Chip &chip,
                                                    MLIRContext *context) {
  // The code generator's refusals are expected: they are not the user's.
  ScopedDiagnosticHandler quiet(context,
                                [](Diagnostic &) { return success(); });
  Location loc = UnknownLoc::get(context);
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  OpBuilder builder = OpBuilder::atBlockEnd(module->getBody());
  auto function = func::FuncOp::create(builder, loc, "candidate", type);
  Block *body = function.addEntryBlock();
  OpBuilder inside = OpBuilder::atBlockEnd(body);
  FailureOr<SmallVector<Value>> outputs =
      materializeProgram(program, inside, loc, body->getArguments(), threads);
  if (failed(outputs))
    return std::nullopt;
  func::ReturnOp::create(inside, loc, *outputs);
  if (failed(verify(*module)))
    return std::nullopt;
  bool usesClusters = llvm::any_of(program.graphs, [](const sem::Graph &g) {
    return g.getClusterSize() != 1;
  });
  SmallVector<const Chip *> chips = getDefaultChips(usesClusters);
  if (!llvm::is_contained(chips, &chip))
    return std::nullopt;
  // Expanded as the bundle writer expands it, then scheduled as the
  // lowering schedules it: the schedule refuses what the lowering would.
  PassManager pm(context);
  pm.addNestedPass<func::FuncOp>(kernel::createExpandToBlocksPass());
  if (failed(pm.run(*module)))
    return std::nullopt;
  ScheduleOptions options = CodegenOptions().getScheduleOptions();
  options.maxSharedBytes = getSharedBytesPerBlock(chips);
  return scheduleFunction(function, program, chips, chip, options);
}

std::function<std::optional<ProgramFacts>(const sem::Program &)>
search::getScheduler(FunctionType type, int32_t threads, const Chip &chip,
                     MLIRContext *context) {
  return [=, &chip](const sem::Program &program) {
    return scheduleProgram(program, type, threads, chip, context);
  };
}

std::optional<ProgramFacts>
search::scheduleFunction(func::FuncOp function, const sem::Program &program,
                         ArrayRef<const Chip *> chips, const Chip &chip,
                         const ScheduleOptions &options) {
  ProgramFacts facts(program.graphs.size());
  auto graphs = function.getBody().getOps<kernel::GraphDefOp>();
  auto nodes = llvm::make_filter_range(
      program.getKernelGraph().nodes,
      [](const sem::Node &node) { return node.kind == sem::OpKind::GraphDef; });
  if (llvm::range_size(graphs) != llvm::range_size(nodes))
    return std::nullopt;
  for (auto [graph, node] : llvm::zip(graphs, nodes)) {
    for (const Chip *target : chips) {
      FailureOr<KernelSchedule> schedule =
          scheduleKernel(graph, *target, options);
      if (failed(schedule))
        return std::nullopt;
      if (target == &chip)
        facts[node.body] = getKernelFacts(graph, *schedule);
    }
  }
  return facts;
}
