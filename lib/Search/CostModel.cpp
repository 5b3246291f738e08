//===- CostModel.cpp - Analytic cost of a µGraph --------------------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Search/CostModel.h"

#include "Mirage/Semantics/LoopPhases.h"

#include <algorithm>
#include <cmath>

using namespace mlir::mirage;
using namespace mlir::mirage::search;
using llvm::ArrayRef;
using sem::Graph;
using sem::OpKind;

/// Threads per block of the code generator, and the most blocks resident
/// per SM the model assumes.
static constexpr double kThreads = 128.0;
static constexpr double kResidentBlocks = 8.0;

/// Blocks needing `sharedBytes` each that one SM holds at once: as many as
/// the shared memory a block may use allows (about an SM's), between one and
/// kResidentBlocks.
static double getResidentBlocks(int64_t sharedBytes, const Chip &gpu) {
  if (sharedBytes <= 0)
    return kResidentBlocks;
  double fitting =
      std::floor(double(gpu.sharedBytesPerBlock) / double(sharedBytes));
  return std::clamp(fitting, 1.0, kResidentBlocks);
}
/// The time one thread takes per term of a sum, its loads included: fitted
/// to the H100 kernel benchmark at 6f7d5d9 (docs/Benchmarks/CostModel.md;
/// 20 ns maximises the rank correlation, which is flat from 15 to 50 ns).
static constexpr double kTermMicroseconds = 0.020;

static int64_t getBytes(const sem::ValueType &type) {
  int64_t elementBytes = type.elementType == sem::ElementType::F32 ? 4 : 2;
  return type.getNumElements() * elementBytes;
}

/// The 16x8x16 step of one mma.sync, and the threads of a warp.
static constexpr int64_t kTileM = 16, kTileN = 8, kTileK = 16;
static constexpr double kWarpSize = 32.0;

/// The shape of matmul `node` of `graph`: batch elements, rows, columns,
/// contraction.
struct MatmulShape {
  double batch, rows, columns, depth;
  bool onTensorCores;
};

static MatmulShape getMatmulShape(const Graph &graph, const sem::Node &node) {
  const sem::ValueType &lhs = graph.values[node.operands[0]];
  const sem::ValueType &result = graph.values[node.results[0]];
  size_t rank = result.shape.size();
  int64_t rows = result.shape[rank - 2], columns = result.shape[rank - 1];
  int64_t depth = lhs.shape.back();
  double batch = double(result.getNumElements()) / double(rows * columns);
  // The code generator's rule (canUseTensorCores).
  bool onTensorCores = lhs.elementType == sem::ElementType::F16 &&
                       depth % kTileK == 0 && columns % kTileN == 0;
  return {batch, double(rows), double(columns), double(depth), onTensorCores};
}

/// Multiply-adds on the SIMT cores and on the tensor cores (rows padded to
/// whole 16-row tiles).
struct MultiplyAdds {
  double simt = 0.0, tensor = 0.0;

  void add(const MatmulShape &shape, double times) {
    if (shape.onTensorCores)
      tensor += times * shape.batch * std::ceil(shape.rows / kTileM) * kTileM *
                shape.columns * shape.depth;
    else
      simt += times * shape.batch * shape.rows * shape.columns * shape.depth;
  }
};

/// The multiply-adds of one block of `body` (whose nodes have `phases`) over
/// the whole for-loop.
static MultiplyAdds countBlockMultiplyAdds(const Graph &body,
                                           ArrayRef<sem::LoopPhase> phases) {
  MultiplyAdds total;
  for (auto [node, phase] : llvm::zip(body.nodes, phases))
    if (node.kind == OpKind::Matmul)
      total.add(getMatmulShape(body, node),
                phase == sem::LoopPhase::InLoop ? double(body.forloop) : 1.0);
  return total;
}

/// The mma.sync steps one warp of a block of `threads` takes in turn for
/// `shape`: its share of the 16x8 tiles times the 16-element steps of each
/// (warps with too few tiles split the steps, as the code generator does).
static double countWarpSteps(const MatmulShape &shape, double threads) {
  double warps = std::max(1.0, threads / kWarpSize);
  double tiles =
      shape.batch * std::ceil(shape.rows / kTileM) * (shape.columns / kTileN);
  double steps = shape.depth / kTileK;
  double slices = 1.0;
  while (tiles * slices * 2 <= warps && std::fmod(steps, slices * 2) == 0.0)
    slices *= 2;
  return std::ceil(tiles * slices / warps) * (steps / slices);
}

/// The terms one thread of a block of `threads` adds up in turn over the
/// whole for-loop: for every op, the results it owns times the terms of
/// each (a matmul's contraction, a reduction's group, one for elementwise
/// ops), or for a matmul on tensor cores its warp's mma.sync steps. The
/// code generator gives every thread whole results. `phases` are those of
/// the body's nodes.
static double countSerialTerms(const Graph &body,
                               ArrayRef<sem::LoopPhase> phases,
                               double threads) {
  double total = 0.0;
  for (auto [node, phase] : llvm::zip(body.nodes, phases)) {
    if (node.kind == OpKind::InputLoader || node.kind == OpKind::OutputSaver)
      continue;
    const sem::ValueType &result = body.values[node.results[0]];
    const sem::ValueType &operand = body.values[node.operands[0]];
    double times = phase == sem::LoopPhase::InLoop ? double(body.forloop) : 1.0;
    if (node.kind == OpKind::Matmul) {
      MatmulShape shape = getMatmulShape(body, node);
      if (shape.onTensorCores) {
        total += countWarpSteps(shape, threads) * times;
        continue;
      }
    }
    double terms = 1.0;
    if (node.kind == OpKind::Matmul)
      terms = double(operand.shape.back());
    else if (node.kind == OpKind::Reduction || node.kind == OpKind::RmsNorm ||
             node.kind == OpKind::ForloopAccum)
      terms =
          double(operand.getNumElements()) / double(result.getNumElements());
    double owned = std::ceil(double(result.getNumElements()) / threads);
    total += owned * terms * times;
  }
  return total;
}

CostEstimate search::estimateCost(const sem::Program &program,
                                  const Chip &gpu) {
  CostEstimate cost;
  cost.sharedBytesLimit = gpu.sharedBytesPerBlock;
  const Graph &kernel = program.getKernelGraph();
  for (const sem::Node &node : kernel.nodes) {
    ++cost.launches;
    int64_t bytes = 0;
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
    if (node.kind != OpKind::GraphDef) {
      for (int32_t value : node.operands)
        bytes += getBytes(kernel.values[value]);
      for (int32_t value : node.results)
        bytes += getBytes(kernel.values[value]);
      if (node.kind == OpKind::Matmul)
        multiplyAdds.add(getMatmulShape(kernel, node), 1.0);
    } else {
      const Graph &body = program.graphs[node.body];
      blocks = double(body.getNumBlocks());
      std::vector<sem::LoopPhase> phases = sem::computeLoopPhases(body);
      multiplyAdds = countBlockMultiplyAdds(body, phases);
      multiplyAdds.simt *= blocks;
      multiplyAdds.tensor *= blocks;
      int64_t shared = 0;
      for (const sem::Node &inner : body.nodes)
        if (inner.kind != OpKind::OutputSaver)
          for (int32_t result : inner.results)
            shared += getBytes(body.values[result]);
      cost.sharedBytes = std::max(cost.sharedBytes, shared);
      double resident = getResidentBlocks(shared, gpu);
      overlapsLoads = body.forloop > 1;
      double waves = std::ceil(blocks / (gpu.multiprocessors * resident));
      serial =
          countSerialTerms(body, phases, kThreads) * waves * kTermMicroseconds;
      for (const sem::Node &inner : body.nodes) {
        if (inner.kind == OpKind::InputLoader) {
          int64_t loads =
              body.getNumBlocks() * (inner.dim >= 0 ? body.forloop : 1);
          bytes += loads * getBytes(body.values[inner.results[0]]);
        } else if (inner.kind == OpKind::OutputSaver) {
          bytes += getBytes(body.values[inner.results[0]]);
        }
      }
    }
    cost.globalBytes += bytes;
    cost.multiplyAdds += multiplyAdds.simt + multiplyAdds.tensor;
    double share = std::min(1.0, blocks / gpu.multiprocessors);
    double memory = double(bytes) / (gpu.copyBytesPerMicrosecond * share);
    double compute =
        (multiplyAdds.simt / gpu.simtMultiplyAddsPerMicrosecond +
         multiplyAdds.tensor / gpu.tensorMultiplyAddsPerMicrosecond) /
        share;
    double work = std::max(compute, serial);
    double kernelTime = overlapsLoads ? std::max(memory, work) : memory + work;
    cost.microseconds += kernelTime + gpu.launchMicroseconds;
  }
  return cost;
}
