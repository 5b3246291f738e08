//===- Program.cpp - Compact form of a Mirage program ---------------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Semantics/Program.h"

#include "Mirage/Semantics/LoopPhases.h"
#include "Mirage/Semantics/Tensor.h"
#include "llvm/Support/ErrorHandling.h"

using namespace mlir::mirage::sem;

int64_t ValueType::getNumElements() const {
  return sem::getNumElements(shape);
}

llvm::StringRef mlir::mirage::sem::getOpName(OpKind kind) {
  if (std::optional<ElementwiseKind> fn = toElementwiseKind(kind))
    return stringifyElementwiseKind(*fn);
  switch (kind) {
  case OpKind::Matmul: return "matmul";
  case OpKind::Reduction: return "reduction";
  case OpKind::RmsNorm: return "rms_norm";
  case OpKind::Concat: return "concat";
  case OpKind::Chunk: return "chunk";
  case OpKind::GraphDef: return "graph_def";
  case OpKind::InputLoader: return "input_loader";
  case OpKind::OutputSaver: return "output_saver";
  case OpKind::ForloopAccum: return "forloop_accum";
  case OpKind::ThreadGraph: return "thread_graph";
  case OpKind::ClusterReduce: return "cluster_reduce";
  case OpKind::ClusterGather: return "cluster_gather";
  case OpKind::ClusterReduceScatter: return "cluster_reduce_scatter";
  }
  llvm_unreachable("unknown op kind");
}

llvm::SmallVector<ValueType> Program::getInputTypes() const {
  llvm::SmallVector<ValueType> types;
  for (int32_t value : getKernelGraph().inputs)
    types.push_back(getKernelGraph().values[value]);
  return types;
}

llvm::SmallVector<ValueType> Program::getOutputTypes() const {
  llvm::SmallVector<ValueType> types;
  for (int32_t value : getKernelGraph().outputs)
    types.push_back(getKernelGraph().values[value]);
  return types;
}

std::vector<LoopPhase> mlir::mirage::sem::computeLoopPhases(const Graph &body) {
  std::vector<LoopPhase> valuePhase(body.values.size(), LoopPhase::Invariant);
  std::vector<LoopPhase> nodePhase;
  nodePhase.reserve(body.nodes.size());
  for (const Node &node : body.nodes) {
    LoopPhase phase = LoopPhase::Invariant;
    if (node.kind == OpKind::InputLoader)
      phase = node.dim >= 0 ? LoopPhase::InLoop : LoopPhase::Invariant;
    else if (node.kind == OpKind::ForloopAccum)
      phase = LoopPhase::PostLoop;
    else
      for (int32_t operand : node.operands)
        if (valuePhase[operand] != LoopPhase::Invariant)
          phase = valuePhase[operand];
    for (int32_t result : node.results)
      valuePhase[result] = phase;
    nodePhase.push_back(phase);
  }
  return nodePhase;
}
