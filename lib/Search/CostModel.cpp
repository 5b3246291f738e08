//===- CostModel.cpp - Analytic cost of a µGraph --------------------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Search/CostModel.h"

#include "Mirage/Analysis/MatmulShapes.h"
#include "Mirage/Analysis/SumShapes.h"
#include "Mirage/Semantics/LoopPhases.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace mlir::mirage;
using namespace mlir::mirage::search;
using llvm::ArrayRef;
using sem::Graph;
using sem::OpKind;

/// The time one thread takes per term of a sum, its loads included: fitted
/// to the H100 kernel benchmark at 6f7d5d9 (docs/Benchmarks/CostModel.md;
/// 20 ns maximises the rank correlation, which is flat from 15 to 50 ns).
static constexpr double kTermMicroseconds = 0.020;

/// Global-memory runs shorter than this many bytes (one L2 cache line) are
/// moved at kShortRunEfficiency of the bandwidth: measured on the H100, a
/// GEMV whose blocks stream 48, 32 or 16 columns of f16 weights (96, 64 or
/// 32-byte runs) takes 10-19% longer than one streaming 64 (128-byte runs)
/// with the same for-loop (docs/Benchmarks/GemvSweep.md).
static constexpr int64_t kFullRunBytes = 128;
static constexpr double kShortRunEfficiency = 0.82;

/// The time a staged tile takes to arrive under load: an SM's pipeline
/// draws at most its bytes in flight per this time (Little's law). Fitted to
/// the same GEMVs: 64 KB of stages per SM draw about 30 GB/s.
static constexpr double kLoadLatencyMicroseconds = 2.2;

static int64_t getElementBytes(const sem::ValueType &type) {
  return type.elementType == sem::ElementType::F32 ? 4 : 2;
}

static int64_t getBytes(const sem::ValueType &type) {
  return type.getNumElements() * getElementBytes(type);
}

/// The fraction of the bandwidth at which `tile` of `tensor` (row-major) moves
/// between global and shared memory: the tile's contiguous runs are its
/// trailing dimensions up to and including the first one it splits.
static double getRunEfficiency(const sem::ValueType &tensor,
                               const sem::ValueType &tile) {
  int64_t run = getElementBytes(tile);
  for (size_t dim = tile.shape.size(); dim-- > 0;) {
    run *= tile.shape[dim];
    if (tile.shape[dim] != tensor.shape[dim])
      break;
  }
  return run >= kFullRunBytes ? 1.0 : kShortRunEfficiency;
}

/// The shape of matmul `node` of `graph` (batch elements, rows, columns,
/// contraction) and the engine it runs on.
struct MatmulShape {
  double batch, rows, columns, depth;
  MatmulEngine engine;

  bool onTensorCores() const { return engine != MatmulEngine::Simt; }
  /// The rows of a tensor-core step (an mma.sync tile, a wgmma's 64).
  double getStepRows() const {
    return engine == MatmulEngine::Wgmma ? double(kWarpgroupTileRows)
                                         : double(kTileM);
  }
};

static MatmulShape getMatmulShape(const Graph &graph, const sem::Node &node,
                                  MatmulEngine engine) {
  const sem::ValueType &lhs = graph.values[node.operands[0]];
  const sem::ValueType &result = graph.values[node.results[0]];
  size_t rank = result.shape.size();
  int64_t rows = result.shape[rank - 2], columns = result.shape[rank - 1];
  int64_t depth = lhs.shape.back();
  double batch = double(result.getNumElements()) / double(rows * columns);
  return {batch, double(rows), double(columns), double(depth), engine};
}

/// The engine of every node of `body` that is a matmul, in node order, as
/// `facts` give them.
static std::vector<std::optional<MatmulEngine>>
getNodeEngines(const Graph &body, const KernelFacts &facts) {
  std::vector<std::optional<MatmulEngine>> engines(body.nodes.size());
  size_t next = 0;
  for (auto [node, engine] : llvm::zip(body.nodes, engines))
    if (node.kind == OpKind::Matmul && next < facts.matmulEngines.size())
      engine = facts.matmulEngines[next++];
  return engines;
}

/// Multiply-adds on the SIMT cores and on the tensor cores (rows padded to
/// whole tensor-core steps).
struct MultiplyAdds {
  double simt = 0.0, tensor = 0.0;

  void add(const MatmulShape &shape, double times) {
    if (shape.onTensorCores())
      tensor += times * shape.batch *
                std::ceil(shape.rows / shape.getStepRows()) *
                shape.getStepRows() * shape.columns * shape.depth;
    else
      simt += times * shape.batch * shape.rows * shape.columns * shape.depth;
  }
};

/// The multiply-adds of one block of `body` (whose nodes have `phases` and,
/// where matmuls, `engines`) over the whole for-loop.
static MultiplyAdds
countBlockMultiplyAdds(const Graph &body, ArrayRef<sem::LoopPhase> phases,
                       ArrayRef<std::optional<MatmulEngine>> engines) {
  MultiplyAdds total;
  for (auto [node, phase, engine] : llvm::zip(body.nodes, phases, engines))
    if (node.kind == OpKind::Matmul)
      total.add(getMatmulShape(body, node, engine.value_or(MatmulEngine::Simt)),
                phase == sem::LoopPhase::InLoop ? double(body.forloop) : 1.0);
  return total;
}

/// The tensor-core steps one warp of a block of `threads` takes in turn for
/// `shape`. On mma.sync: its share of the 16x8 tiles times the 16-element
/// steps of each (warps with too few tiles split the steps, as the code
/// generator does). On wgmma: its warpgroup's share of the items (64 rows
/// by at most 128 columns) times their 16-element steps.
static double countWarpSteps(const MatmulShape &shape, double threads) {
  double steps = shape.depth / kTileK;
  if (shape.engine == MatmulEngine::Wgmma) {
    double warpgroups = std::max(1.0, threads / double(kWarpgroupSize));
    double tiles = shape.batch * std::ceil(shape.rows / kWarpgroupTileRows) *
                   std::ceil(shape.columns / kWarpgroupMaxColumns);
    return std::ceil(tiles / warpgroups) * steps;
  }
  double warps = std::max(1.0, threads / double(kWarpSize));
  double tiles =
      shape.batch * std::ceil(shape.rows / kTileM) * (shape.columns / kTileN);
  double slices = 1.0;
  while (tiles * slices * 2 <= warps && std::fmod(steps, slices * 2) == 0.0)
    slices *= 2;
  return std::ceil(tiles * slices / warps) * (steps / slices);
}

/// The terms one thread of a block of `threads` adds up in turn over the
/// whole for-loop: for every op, the results it owns times the terms of
/// each (a matmul's contraction, a reduction's group, one for elementwise
/// ops), or for a matmul on tensor cores its warp's mma.sync steps. Sums
/// are split over the threads as the code generator splits them
/// (getSumSlices): a thread owns its share of (slice, result) pairs, each
/// a slice's terms, and the slices are added pairwise after; a for-loop sum
/// that keeps lane partials (`lanePartials`, the schedule's, one entry per
/// forloop_accum in body order) has each lane add its runs in the loop and
/// one thread per result add the lanes after it. `phases` and `engines` are
/// those of the body's nodes.
static double
countSerialTerms(const Graph &body, ArrayRef<sem::LoopPhase> phases,
                 ArrayRef<std::optional<MatmulEngine>> engines,
                 ArrayRef<std::optional<LanePartials>> lanePartials,
                 double threads) {
  double total = 0.0;
  size_t accums = 0;
  for (auto [node, phase, engine] : llvm::zip(body.nodes, phases, engines)) {
    if (node.kind == OpKind::InputLoader || node.kind == OpKind::OutputSaver)
      continue;
    const sem::ValueType &result = body.values[node.results[0]];
    const sem::ValueType &operand = body.values[node.operands[0]];
    double times = phase == sem::LoopPhase::InLoop ? double(body.forloop) : 1.0;
    if (node.kind == OpKind::Matmul) {
      MatmulShape shape =
          getMatmulShape(body, node, engine.value_or(MatmulEngine::Simt));
      if (shape.onTensorCores()) {
        total += countWarpSteps(shape, threads) * times;
        continue;
      }
    }
    int64_t terms = 1;
    if (node.kind == OpKind::Matmul)
      terms = operand.shape.back();
    else if (node.kind == OpKind::Reduction ||
             node.kind == OpKind::ReductionMax ||
             node.kind == OpKind::RmsNorm || node.kind == OpKind::ForloopAccum)
      terms = operand.getNumElements() / result.getNumElements();
    int64_t groups = result.getNumElements();
    std::optional<LanePartials> lanes;
    if (node.kind == OpKind::ForloopAccum && accums < lanePartials.size())
      lanes = lanePartials[accums];
    if (node.kind == OpKind::ForloopAccum)
      ++accums;
    if (lanes && lanes->lanes > 0 && lanes->termRun > 0) {
      // Each lane adds its runs of `termRun` terms; a result's lanes are
      // added once, after the loop.
      double runs = double(terms / lanes->termRun);
      total += std::ceil(runs / double(lanes->lanes)) * double(lanes->termRun) *
                   times +
               double(lanes->lanes);
      continue;
    }
    int64_t slices =
        terms == 1 ? 1 : getSumSlices(groups, terms, int64_t(threads), 1);
    double owned = std::ceil(double(groups * slices) / threads);
    total +=
        (owned * double(terms / slices) + std::log2(double(slices))) * times;
  }
  return total;
}

/// The engine the vendor library runs a predefined matmul with operands of
/// `type` on: tensor cores for 16-bit floats.
static MatmulEngine getLibraryEngine(const sem::ValueType &type) {
  return type.elementType == sem::ElementType::F32 ? MatmulEngine::Simt
                                                   : MatmulEngine::MmaSync;
}

double search::countMultiplyAdds(const sem::Program &program) {
  double total = 0.0;
  const Graph &kernel = program.getKernelGraph();
  auto count = [](const Graph &graph, const sem::Node &node) {
    MatmulShape shape = getMatmulShape(graph, node, MatmulEngine::Simt);
    return shape.batch * shape.rows * shape.columns * shape.depth;
  };
  for (const sem::Node &node : kernel.nodes) {
    if (node.kind == OpKind::Matmul)
      total += count(kernel, node);
    if (node.kind != OpKind::GraphDef)
      continue;
    const Graph &body = program.graphs[node.body];
    std::vector<sem::LoopPhase> phases = sem::computeLoopPhases(body);
    for (auto [inner, phase] : llvm::zip(body.nodes, phases))
      if (inner.kind == OpKind::Matmul)
        total += count(body, inner) * double(body.getNumBlocks()) *
                 (phase == sem::LoopPhase::InLoop ? double(body.forloop) : 1.0);
  }
  return total;
}

CostEstimate search::estimateCost(const sem::Program &program, const Chip &gpu,
                                  const ProgramFacts &facts) {
  CostEstimate cost;
  const Graph &kernel = program.getKernelGraph();
  for (const sem::Node &node : kernel.nodes) {
    ++cost.launches;
    int64_t bytes = 0;
    // The bytes each load or save moves at the full bandwidth, its short
    // runs weighted (getRunEfficiency).
    double streamedBytes = 0.0;
    // Loop-invariant tiles are loaded once per block, before the for-loop's
    // pipeline starts (preloaded) or where they are read (in place): no
    // stage overlaps them with computation.
    double invariantStreamedBytes = 0.0;
    // The most bytes per µs one SM draws: a pipelined kernel's, its stages
    // in flight over the load latency.
    double smBandwidth = gpu.smBytesPerMicrosecond;
    MultiplyAdds multiplyAdds;
    double serial = 0.0;
    // Whether the kernel's loads overlap its computation: a for-loop's
    // stages copy the next iterations' tiles during this one's work; a block
    // without a for-loop loads everything, then computes (measured on the
    // H100: the split-KV MHA µGraph takes 24.3 µs with one 256-key
    // iteration per block, 10.1 µs with four pipelined 64-key ones).
    bool overlapsLoads = true;
    // Predefined ops are assumed to fill the GPU.
    double blocks = double(gpu.multiprocessors);
    double launch = gpu.launchMicroseconds;
    if (node.kind != OpKind::GraphDef) {
      for (int32_t value : node.operands)
        bytes += getBytes(kernel.values[value]);
      for (int32_t value : node.results)
        bytes += getBytes(kernel.values[value]);
      streamedBytes = double(bytes);
      if (node.kind == OpKind::Matmul)
        multiplyAdds.add(
            getMatmulShape(kernel, node,
                           getLibraryEngine(kernel.values[node.operands[0]])),
            1.0);
    } else {
      const Graph &body = program.graphs[node.body];
      const std::optional<KernelFacts> &schedule =
          size_t(node.body) < facts.size() ? facts[node.body] : std::nullopt;
      if (!schedule) {
        // The code generator refuses it: no time makes it a candidate.
        cost.scheduled = false;
        cost.microseconds = std::numeric_limits<double>::infinity();
        continue;
      }
      blocks = double(body.getNumBlocks());
      if (body.getClusterSize() > 1)
        launch += gpu.clusterLaunchMicroseconds;
      std::vector<sem::LoopPhase> phases = sem::computeLoopPhases(body);
      std::vector<std::optional<MatmulEngine>> engines =
          getNodeEngines(body, *schedule);
      multiplyAdds = countBlockMultiplyAdds(body, phases, engines);
      multiplyAdds.simt *= blocks;
      multiplyAdds.tensor *= blocks;
      cost.sharedBytes = std::max(cost.sharedBytes, schedule->sharedBytes);
      overlapsLoads = schedule->isPipelined();
      double waves = std::ceil(
          blocks / double(gpu.multiprocessors * schedule->residentBlocks));
      serial = countSerialTerms(body, phases, engines, schedule->lanePartials,
                                double(schedule->threads)) *
               waves * kTermMicroseconds;
      int64_t stageBytes = 0;
      for (const sem::Node &inner : body.nodes) {
        if (inner.kind == OpKind::InputLoader) {
          int64_t loads =
              body.getNumBlocks() * (inner.dim >= 0 ? body.forloop : 1);
          const sem::ValueType &tile = body.values[inner.results[0]];
          int64_t loaded = loads * getBytes(tile);
          double streamed =
              double(loaded) /
              getRunEfficiency(body.values[inner.operands[0]], tile);
          bytes += loaded;
          streamedBytes += streamed;
          if (inner.dim < 0)
            invariantStreamedBytes += streamed;
          else
            stageBytes += getBytes(tile);
        } else if (inner.kind == OpKind::OutputSaver) {
          const sem::ValueType &tensor = body.values[inner.results[0]];
          int64_t saved = getBytes(tensor);
          bytes += saved;
          streamedBytes +=
              double(saved) /
              getRunEfficiency(tensor, body.values[inner.operands[0]]);
        }
      }
      if (overlapsLoads && stageBytes > 0) {
        double blocksPerSM =
            std::min(double(schedule->residentBlocks),
                     std::ceil(blocks / double(gpu.multiprocessors)));
        smBandwidth = std::min(
            smBandwidth, blocksPerSM * double(schedule->stages * stageBytes) /
                             kLoadLatencyMicroseconds);
      }
    }
    cost.globalBytes += bytes;
    cost.multiplyAdds += multiplyAdds.simt + multiplyAdds.tensor;
    double share = std::min(1.0, blocks / gpu.multiprocessors);
    // A grid of fewer blocks than SMs still draws the whole bandwidth when
    // its SMs together can: each draws up to smBytesPerMicrosecond.
    double bandwidth =
        std::min(gpu.copyBytesPerMicrosecond,
                 std::min(blocks, double(gpu.multiprocessors)) * smBandwidth);
    double memory = streamedBytes / bandwidth;
    double invariantMemory = invariantStreamedBytes / bandwidth;
    double compute =
        (multiplyAdds.simt / gpu.simtMultiplyAddsPerMicrosecond +
         multiplyAdds.tensor / gpu.tensorMultiplyAddsPerMicrosecond) /
        share;
    double work = std::max(compute, serial);
    double kernelTime =
        overlapsLoads
            ? invariantMemory + std::max(memory - invariantMemory, work)
            : memory + work;
    cost.microseconds += kernelTime + launch;
  }
  return cost;
}
