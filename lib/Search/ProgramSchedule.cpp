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

namespace {

/// Marks, during scheduleProgram, each graph_def of the candidate with its
/// rank among the candidate's graph_defs.
constexpr StringLiteral kBodyAttrName = "mirage.search.graph_def";

/// Schedules every graph_def of `graphs` for each of `chips`; `tags[i]` is
/// the rank of `graphs[i]` among `program`'s graph_def nodes, or -1 for a
/// graph_def that is not the program's (a predefined op's expansion). The
/// facts of the program's graph_defs for `chip`; nothing when one has no
/// schedule or a program's graph_def has none of `graphs`.
std::optional<ProgramFacts>
scheduleGraphs(ArrayRef<kernel::GraphDefOp> graphs, ArrayRef<int64_t> tags,
               const sem::Program &program, ArrayRef<const Chip *> chips,
               const Chip &chip, const ScheduleOptions &options) {
  SmallVector<int32_t> bodies;
  for (const sem::Node &node : program.getKernelGraph().nodes)
    if (node.kind == sem::OpKind::GraphDef)
      bodies.push_back(node.body);
  if (llvm::count_if(tags, [](int64_t tag) { return tag >= 0; }) !=
      int64_t(bodies.size()))
    return std::nullopt;
  ProgramFacts facts(program.graphs.size());
  for (auto [graph, tag] : llvm::zip(graphs, tags)) {
    if (tag >= int64_t(bodies.size()))
      return std::nullopt;
    for (const Chip *target : chips) {
      FailureOr<KernelSchedule> schedule =
          scheduleKernel(graph, *target, options);
      if (failed(schedule))
        return std::nullopt;
      if (target == &chip && tag >= 0)
        facts[bodies[tag]] = getKernelFacts(graph, *schedule);
    }
  }
  return facts;
}

} // namespace

KernelFacts search::getKernelFacts(kernel::GraphDefOp graph,
                                   const KernelSchedule &schedule) {
  KernelFacts facts;
  facts.threads = schedule.threads;
  facts.sharedBytes = schedule.sharedBytes;
  facts.residentBlocks = std::max<int64_t>(1, schedule.residentBlocks);
  facts.stages = schedule.stages;
  facts.tensorCopies = schedule.tensorCopies;
  for (auto matmul : graph.getBodyBlock().getOps<block::MatmulOp>())
    facts.matmulEngines.push_back(schedule.getEngine(matmul));
  for (auto accum : graph.getBodyBlock().getOps<block::ForloopAccumOp>()) {
    auto found = schedule.lanePartials.find(accum);
    facts.lanePartials.push_back(
        found == schedule.lanePartials.end()
            ? std::nullopt
            : std::optional<LanePartials>(found->second));
  }
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
  // Expanded as the bundle writer expands it (kernel-level matmuls stay
  // library calls, other predefined ops become graph_defs of their own),
  // then scheduled as the lowering schedules it: the schedule refuses what
  // the lowering would. The candidate's own graph_defs are tagged first.
  for (auto [index, graph] :
       llvm::enumerate(function.getBody().getOps<kernel::GraphDefOp>()))
    graph->setAttr(kBodyAttrName, builder.getI64IntegerAttr(index));
  CodegenOptions codegen;
  kernel::ExpandToBlocksPassOptions expand;
  expand.libraryMatmuls = codegen.libraryMatmuls;
  PassManager pm(context);
  pm.addNestedPass<func::FuncOp>(kernel::createExpandToBlocksPass(expand));
  if (failed(pm.run(*module)))
    return std::nullopt;
  ScheduleOptions options = codegen.getScheduleOptions();
  options.maxSharedBytes = getSharedBytesPerBlock(chips);
  SmallVector<kernel::GraphDefOp> graphs;
  SmallVector<int64_t> tags;
  for (auto graph : function.getBody().getOps<kernel::GraphDefOp>()) {
    graphs.push_back(graph);
    auto tag = graph->getAttrOfType<IntegerAttr>(kBodyAttrName);
    tags.push_back(tag ? tag.getInt() : -1);
  }
  return scheduleGraphs(graphs, tags, program, chips, chip, options);
}

std::function<std::optional<ProgramFacts>(const sem::Program &)>
search::getScheduler(int32_t threads, const Chip &chip, MLIRContext *context) {
  return [=, &chip](const sem::Program &program) {
    return scheduleProgram(program, getFunctionType(program, context), threads,
                           chip, context);
  };
}

std::optional<ProgramFacts>
search::scheduleFunction(func::FuncOp function, const sem::Program &program,
                         ArrayRef<const Chip *> chips, const Chip &chip,
                         const ScheduleOptions &options) {
  SmallVector<kernel::GraphDefOp> graphs =
      llvm::to_vector(function.getBody().getOps<kernel::GraphDefOp>());
  return scheduleGraphs(graphs,
                        llvm::to_vector(llvm::seq<int64_t>(0, graphs.size())),
                        program, chips, chip, options);
}
