//===- KernelSchedule.cpp - The decisions behind one kernel ---------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// scheduleKernel descends the rungs of choices until the kernel fits, then
// picks its stage count; planKernel plans one rung (SchedulePlanner.cpp).
//
//===----------------------------------------------------------------------===//

#include "Mirage/Analysis/KernelSchedule.h"

#include "SchedulePlanner.h"

#include <numeric>

using namespace mlir;
using namespace mlir::mirage;
using block::LoopPhase;

/// The registers a thread needs besides the loop's sums: addresses, loop
/// counters and temporaries.
static constexpr int64_t kBaseRegisters = 32;

StringRef mlir::mirage::stringifyMatmulEngine(MatmulEngine engine) {
  switch (engine) {
  case MatmulEngine::Simt:
    return "simt";
  case MatmulEngine::MmaSync:
    return "mma.sync";
  case MatmulEngine::Wgmma:
    return "wgmma";
  }
  llvm_unreachable("unknown matmul engine");
}

int64_t mlir::mirage::getSharedSwizzle(Value value) {
  auto isMatmul = [](Operation *op) { return isa<block::MatmulOp>(op); };
  Operation *def = value.getDefiningOp();
  if (auto accum = dyn_cast_or_null<block::ForloopAccumOp>(def))
    def = accum.getInput().getDefiningOp();
  if (!(def && isMatmul(def)) && llvm::none_of(value.getUsers(), isMatmul))
    return 0;
  auto type = cast<ShapedType>(value.getType());
  ArrayRef<int64_t> shape = type.getShape();
  int64_t elementBytes = type.getElementTypeBitWidth() / 8;
  if (shape.size() < 2 ||
      elementBytes * type.getNumElements() % kSwizzleAlignment != 0)
    return 0;
  int64_t rowBytes = shape.back() * elementBytes;
  for (int64_t swizzle : {128, 64, 32})
    if (rowBytes % swizzle == 0)
      return swizzle;
  return 0;
}

SmallVector<std::pair<unsigned, int64_t>, 4>
mlir::mirage::getLoaderOffsetTerms(kernel::GraphDefOp graph,
                                   block::InputLoaderOp op) {
  ArrayRef<int64_t> whole = getShape(op.getSource());
  ArrayRef<int64_t> shape = getShape(op.getResult());
  SmallVector<int64_t, 4> strides = getContiguousStrides(whole);
  SmallVector<std::pair<unsigned, int64_t>, 4> terms;
  // This block's chunk along each mapped grid axis, then this iteration's.
  for (unsigned axis = 0; axis < 3; ++axis) {
    int32_t dim = op.getImap().getDim(axis);
    if (dim >= 0 && graph.getGrid()[axis] != 1)
      terms.emplace_back(axis,
                         whole[dim] / graph.getGrid()[axis] * strides[dim]);
  }
  if (op.isLoopVarying())
    terms.emplace_back(kIterationTerm,
                       shape[op.getFmap()] * strides[op.getFmap()]);
  return terms;
}

SmallVector<int64_t, 4>
mlir::mirage::getWholeLoopShape(kernel::GraphDefOp graph,
                                block::InputLoaderOp loader) {
  SmallVector<int64_t, 4> shape(getShape(loader.getResult()));
  shape[loader.getFmap()] *= graph.getForloop();
  return shape;
}

//===----------------------------------------------------------------------===//
// KernelSchedule
//===----------------------------------------------------------------------===//

bool KernelSchedule::isInRegisters(block::ForloopAccumOp accum) const {
  return registerSums.contains(accum) || getChain(accum);
}

MatmulEngine KernelSchedule::getEngine(block::MatmulOp matmul) const {
  if (auto engine = engines.find(matmul); engine != engines.end())
    return engine->second;
  for (Operation *user : matmul->getUsers())
    if (auto sum = registerSums.find(user); sum != registerSums.end())
      return sum->second.engine;
  // Chains run on mma.sync (canChainMatmuls).
  assert((registerChains.contains(matmul) ||
          llvm::any_of(
              registerChains,
              [&](auto &entry) { return entry.second.first == matmul; })) &&
         "a matmul without an engine");
  return MatmulEngine::MmaSync;
}

const RegisterChain *KernelSchedule::getChain(Operation *op) const {
  if (auto found = registerChains.find(op); found != registerChains.end())
    return &found->second;
  auto accum = dyn_cast<block::ForloopAccumOp>(op);
  if (!accum)
    return nullptr;
  for (auto &[second, chain] : registerChains)
    if (accum.getInput() == second->getResult(0) ||
        llvm::is_contained(chain.rowSums, accum) || chain.runningMax == accum)
      return &chain;
  return nullptr;
}

Operation *KernelSchedule::getReader(Operation *op) const {
  for (auto &[second, chain] : registerChains)
    if (chain.first == op)
      return second;
  return op;
}

LoopPhase KernelSchedule::getRunPhase(Operation *op) const {
  return isa<block::ForloopAccumOp>(op) ? LoopPhase::InLoop : phases.lookup(op);
}

//===----------------------------------------------------------------------===//
// The ladder
//===----------------------------------------------------------------------===//

FailureOr<KernelSchedule>
mlir::mirage::planKernel(kernel::GraphDefOp graph, const Chip &chip,
                         const ScheduleChoices &choices) {
  KernelSchedule schedule;
  FailureOr<block::LoopPhaseMap> phases =
      block::analyzeLoopPhases(graph.getBodyBlock(), graph.getForloop());
  if (failed(phases))
    return failure();
  schedule.phases = std::move(*phases);
  FailureOr<RunningMaxima> maxima =
      analyzeRunningMaxima(graph.getBodyBlock(), schedule.phases);
  if (failed(maxima))
    return failure();
  schedule.runningMaxima = std::move(*maxima);
  planSchedule(graph, choices, schedule);
  schedule.registerEstimate = schedule.loopRegisters + kBaseRegisters;
  schedule.residentBlocks =
      chip.residentBlocks(schedule.sharedBytes, schedule.threads);
  return schedule;
}

FailureOr<KernelSchedule>
mlir::mirage::scheduleKernel(kernel::GraphDefOp graph, const Chip &chip,
                             const ScheduleOptions &options) {
  if (graph.getCluster() && !chip.hasClusters())
    return graph.emitOpError()
           << "uses a thread-block cluster, which " << chip.name
           << " does not have (clusters need sm_90a)";
  // A kernel that does not fit in shared memory gets fewer stages, then no
  // preloaded tiles, then no staging, then no vector groups in its sums.
  int64_t limit = chip.sharedBytesPerBlock;
  if (options.maxSharedBytes > 0)
    limit = std::min(limit, options.maxSharedBytes);
  bool tensorCores = options.tensorCores;
  bool warpgroupMatmuls =
      options.warpgroupMatmuls && tensorCores && chip.hasWgmma;
  // A graph_def marked `async_copies` keeps cp.async where TMA would copy.
  bool tensorCopies =
      options.tensorCopies && chip.hasTMA && !graph.getAsyncCopies();
  int64_t stages = options.maxStages;
  ScheduleChoices rungs[] = {
      {stages, kMaxStagingBytes, true, tensorCores, warpgroupMatmuls,
       tensorCopies, true},
      {stages, kMaxStagingBytes, true, tensorCores, false, tensorCopies, true},
      {stages, kFallbackStagingBytes, true, tensorCores, false, tensorCopies,
       true},
      {stages, kFallbackStagingBytes, true, tensorCores, false, tensorCopies,
       false},
      {0, 0, true, tensorCores, false, false, false},
      {0, 0, false, tensorCores, false, false, false}};
  for (ScheduleChoices &rung : rungs) {
    rung.rowPrograms = options.rowPrograms;
    rung.preloadOnePass = options.preloadOnePass;
    rung.runningMaxChains = options.runningMaxChains;
  }
  std::optional<KernelSchedule> chosen;
  for (const ScheduleChoices &rung : rungs) {
    FailureOr<KernelSchedule> schedule = planKernel(graph, chip, rung);
    if (failed(schedule))
      return failure();
    chosen = std::move(*schedule);
    if (chosen->sharedBytes <= limit)
      break;
  }
  if (chosen->sharedBytes > limit)
    return graph.emitOpError()
           << "needs " << chosen->sharedBytes
           << " bytes of shared memory per block, more than the " << limit
           << " of " << chip.name
           << "; use smaller tiles (a larger grid or for-loop)";

  // Fewer stages take less shared memory, so more blocks may share an SM:
  // the kernel takes the stage count that lets the most of its blocks run at
  // once, counting no more than the blocks each SM has to run (ties: more
  // stages, which hide more of the copies' latency).
  ArrayRef<int32_t> grid = graph.getGrid();
  int64_t blocks = int64_t(grid[0]) * grid[1] * grid[2];
  int64_t wanted = llvm::divideCeil(blocks, chip.multiprocessors);
  auto concurrency = [&](const KernelSchedule &schedule) {
    return std::min(wanted, schedule.residentBlocks);
  };
  ScheduleChoices choices = chosen->choices;
  for (choices.maxStages = chosen->stages - 1;
       choices.maxStages >= 2 && concurrency(*chosen) < wanted;
       --choices.maxStages) {
    FailureOr<KernelSchedule> fewer = planKernel(graph, chip, choices);
    if (failed(fewer))
      return failure();
    if (concurrency(*fewer) > concurrency(*chosen))
      chosen = std::move(*fewer);
  }
  return std::move(*chosen);
}

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

void KernelSchedule::print(raw_ostream &os, kernel::GraphDefOp graph) const {
  // Ops are named by their position in the body.
  DenseMap<Operation *, unsigned> positions;
  for (auto [index, op] : llvm::enumerate(graph.getBodyBlock()))
    positions[&op] = index;
  auto name = [&](Operation *op) {
    return ("#" + Twine(positions.lookup(op)) + " " +
            op->getName().stripDialect())
        .str();
  };
  os << "threads " << threads << ", shared " << sharedBytes << " bytes, "
     << "registers ~" << registerEstimate << ", resident blocks "
     << residentBlocks << "\n";
  os << "  choices: stages<=" << choices.maxStages
     << " staging<=" << choices.stagingBytes
     << " vector-sums=" << choices.vectorSums
     << " tensor-cores=" << choices.tensorCores
     << " wgmma=" << choices.warpgroupMatmuls << " tma=" << choices.tensorCopies
     << " preload=" << choices.preloadInvariants << "\n";
  os << "  stages " << stages << (tensorCopies ? " (tma)" : "") << "\n";
  for (auto &[op, tile] : staged)
    os << "  staged " << name(op) << " swizzle " << tile.swizzle << " block "
       << tile.blockExtent << "\n";
  for (Operation *op : preloaded)
    os << "  preloaded " << name(op) << "\n";
  for (Operation &op : graph.getBodyBlock())
    if (auto engine = engines.find(&op); engine != engines.end())
      os << "  matmul " << name(&op) << " "
         << stringifyMatmulEngine(engine->second)
         << (epilogues.contains(&op)
                 ? " epilogue " + name(epilogues.lookup(&op))
                 : std::string())
         << "\n";
  for (auto &[accum, sum] : registerSums)
    os << "  register sum " << name(accum) << " "
       << stringifyMatmulEngine(sum.engine) << " registers ["
       << sum.firstRegister << ", " << sum.firstRegister + sum.numRegisters
       << ")\n";
  for (auto &[accum, partials] : lanePartials)
    os << "  lane partials " << name(accum) << " lanes " << partials.lanes
       << " run " << partials.termRun << "\n";
  for (auto &[max, sums] : runningMaxima) {
    os << "  running max " << name(max) << " rescales";
    for (Operation *sum : sums)
      os << " " << name(sum);
    os << "\n";
  }
  for (auto &[second, chain] : registerChains)
    os << "  register chain " << name(chain.first) << " -> " << name(second)
       << " row sums " << chain.rowSums.size() << " registers ["
       << chain.firstRegister << ", "
       << chain.firstRegister + chain.numRegisters << ")"
       << (chain.runningMax ? " running max " + name(chain.runningMax)
                            : std::string())
       << "\n";
  if (rowProgram)
    os << "  row program width " << rowProgram->width << " lanes "
       << rowProgram->lanes << " runs " << rowProgram->runsPerThread << "\n";
  for (Operation &op : graph.getBodyBlock())
    if (auto rows = registerRows.find(&op); rows != registerRows.end())
      os << "  register rows " << name(&op) << " width " << rows->second.width
         << " lanes " << rows->second.lanes << " runs "
         << rows->second.runsPerThread << "\n";
  for (Operation &op : graph.getBodyBlock())
    if (Operation *saver = directSaves.lookup(&op))
      os << "  direct save " << name(&op) << " -> " << name(saver) << "\n";
  for (const SharedBuffer &buffer : buffers)
    os << "  buffer [" << buffer.offset << ", " << buffer.offset + buffer.bytes
       << ") align " << buffer.alignment << "\n";
}
