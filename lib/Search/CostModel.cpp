//===- CostModel.cpp - Analytic cost of a µGraph --------------------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Search/CostModel.h"

#include <algorithm>

using namespace mlir::mirage;
using namespace mlir::mirage::search;
using sem::Graph;
using sem::OpKind;

/// H100 SXM as BENCHMARKS.md measured it: 132 SMs, 2.95 TB/s copy
/// bandwidth, 4.35 µs for a tiny kernel.
static constexpr double kSMs = 132.0;
static constexpr double kBytesPerMicrosecond = 2.95e6;
static constexpr double kLaunchMicroseconds = 4.35;
/// Shared memory one block may use on an H100.
static constexpr int64_t kSharedBytesPerBlock = 227 * 1024;

bool CostEstimate::fitsSharedMemory() const {
  return sharedBytes <= kSharedBytesPerBlock;
}

static int64_t getBytes(const sem::ValueType &type) {
  int64_t elementBytes = type.elementType == sem::ElementType::F32 ? 4 : 2;
  return type.getNumElements() * elementBytes;
}

CostEstimate search::estimateCost(const sem::Program &program) {
  CostEstimate cost;
  const Graph &kernel = program.getKernelGraph();
  for (const sem::Node &node : kernel.nodes) {
    ++cost.launches;
    int64_t bytes = 0;
    // Predefined ops are assumed to fill the GPU.
    double blocks = kSMs;
    if (node.kind != OpKind::GraphDef) {
      for (int32_t value : node.operands)
        bytes += getBytes(kernel.values[value]);
      for (int32_t value : node.results)
        bytes += getBytes(kernel.values[value]);
    } else {
      const Graph &body = program.graphs[node.body];
      blocks = double(body.getNumBlocks());
      int64_t shared = 0;
      for (const sem::Node &inner : body.nodes)
        if (inner.kind != OpKind::OutputSaver)
          for (int32_t result : inner.results)
            shared += getBytes(body.values[result]);
      cost.sharedBytes = std::max(cost.sharedBytes, shared);
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
    double share = std::min(1.0, blocks / kSMs);
    cost.microseconds +=
        double(bytes) / (kBytesPerMicrosecond * share) + kLaunchMicroseconds;
  }
  return cost;
}
