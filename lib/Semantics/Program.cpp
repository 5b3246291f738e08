//===- Program.cpp - Compact form of a Mirage program ---------------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Semantics/Program.h"

#include "Mirage/Dialect/Block/IR/BlockOps.h"
#include "Mirage/Dialect/Kernel/IR/KernelOps.h"
#include "Mirage/Dialect/Thread/IR/ThreadOps.h"
#include "Mirage/Semantics/LoopPhases.h"
#include "Mirage/Semantics/Tensor.h"
#include "llvm/Support/ErrorHandling.h"

using namespace mlir;
using namespace mlir::mirage;
using namespace mlir::mirage::sem;

int64_t ValueType::getNumElements() const { return sem::getNumElements(shape); }

llvm::StringRef mlir::mirage::sem::getElementTypeName(ElementType type) {
  switch (type) {
  case ElementType::F16:
    return "f16";
  case ElementType::BF16:
    return "bf16";
  case ElementType::F32:
    return "f32";
  }
  llvm_unreachable("unknown element type");
}

namespace {

/// The mnemonic of `OpTy`, without its dialect's prefix.
template <typename OpTy> llvm::StringRef getMnemonic() {
  return OpTy::getOperationName().split('.').second;
}

constexpr OpKind kLastOpKind = OpKind::ClusterReduceScatter;

} // namespace

llvm::StringRef mlir::mirage::sem::getOpName(OpKind kind) {
  if (std::optional<ElementwiseKind> fn = toElementwiseKind(kind))
    return stringifyElementwiseKind(*fn);
  switch (kind) {
  case OpKind::Matmul:
    return getMnemonic<kernel::MatmulOp>();
  case OpKind::Reduction:
    return getMnemonic<kernel::ReductionOp>();
  case OpKind::ReductionMax:
    return getMnemonic<kernel::ReductionMaxOp>();
  case OpKind::RmsNorm:
    return getMnemonic<kernel::RmsNormOp>();
  case OpKind::Concat:
    return getMnemonic<kernel::ConcatOp>();
  case OpKind::Chunk:
    return getMnemonic<kernel::ChunkOp>();
  case OpKind::GraphDef:
    return getMnemonic<kernel::GraphDefOp>();
  case OpKind::InputLoader:
    return getMnemonic<block::InputLoaderOp>();
  case OpKind::OutputSaver:
    return getMnemonic<block::OutputSaverOp>();
  case OpKind::ForloopAccum:
    return getMnemonic<block::ForloopAccumOp>();
  case OpKind::ThreadGraph:
    return getMnemonic<block::ThreadGraphOp>();
  case OpKind::ClusterReduce:
    return getMnemonic<block::ClusterReduceOp>();
  case OpKind::ClusterGather:
    return getMnemonic<block::ClusterGatherOp>();
  case OpKind::ClusterReduceScatter:
    return getMnemonic<block::ClusterReduceScatterOp>();
  }
  llvm_unreachable("unknown op kind");
}

std::optional<OpKind> mlir::mirage::sem::getOpKind(llvm::StringRef name) {
  for (uint8_t k = 0; k <= static_cast<uint8_t>(kLastOpKind); ++k)
    if (name == getOpName(static_cast<OpKind>(k)))
      return static_cast<OpKind>(k);
  return std::nullopt;
}

llvm::StringRef mlir::mirage::sem::getAccumName(AccumKind kind) {
  auto name = [](block::AccumKind kind) {
    return block::stringifyAccumKind(kind);
  };
  switch (kind) {
  case AccumKind::Sum:
    return name(block::AccumKind::Sum);
  case AccumKind::SumLast:
    return name(block::AccumKind::SumLast);
  case AccumKind::SumLastTo:
    return name(block::AccumKind::SumLastTo);
  case AccumKind::RmsLast:
    return name(block::AccumKind::RmsLast);
  case AccumKind::Max:
    return name(block::AccumKind::Max);
  }
  llvm_unreachable("unknown accumulator kind");
}

std::optional<AccumKind> mlir::mirage::sem::getAccumKind(llvm::StringRef name) {
  for (uint8_t k = 0; k <= static_cast<uint8_t>(AccumKind::Max); ++k)
    if (name == getAccumName(static_cast<AccumKind>(k)))
      return static_cast<AccumKind>(k);
  return std::nullopt;
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
  // The results of `forloop_accum max`: a `sub` of one from a value computed
  // in the loop reads a running maximum and runs in the loop
  // (block::isRunningMaxRead).
  std::vector<bool> isMax(body.values.size(), false);
  std::vector<LoopPhase> nodePhase;
  nodePhase.reserve(body.nodes.size());
  for (const Node &node : body.nodes) {
    LoopPhase phase = LoopPhase::Invariant;
    if (node.kind == OpKind::InputLoader)
      phase = node.dim >= 0 ? LoopPhase::InLoop : LoopPhase::Invariant;
    else if (node.kind == OpKind::ForloopAccum)
      phase = LoopPhase::PostLoop;
    else if (node.kind == toOpKind(ElementwiseKind::Sub) &&
             valuePhase[node.operands[0]] == LoopPhase::InLoop &&
             isMax[node.operands[1]])
      phase = LoopPhase::InLoop;
    else
      for (int32_t operand : node.operands)
        if (valuePhase[operand] != LoopPhase::Invariant)
          phase = valuePhase[operand];
    for (int32_t result : node.results) {
      valuePhase[result] = phase;
      isMax[result] =
          node.kind == OpKind::ForloopAccum && node.accum == AccumKind::Max;
    }
    nodePhase.push_back(phase);
  }
  return nodePhase;
}

std::vector<bool>
mlir::mirage::sem::getRunningMaxima(const Graph &body,
                                    const std::vector<LoopPhase> &phases) {
  std::vector<int32_t> producer(body.values.size(), -1);
  std::vector<bool> running(body.nodes.size(), false);
  for (auto [index, node] : llvm::enumerate(body.nodes)) {
    for (int32_t result : node.results)
      producer[result] = static_cast<int32_t>(index);
    if (phases[index] != LoopPhase::InLoop)
      continue;
    for (int32_t operand : node.operands)
      if (int32_t p = producer[operand];
          p >= 0 && body.nodes[p].kind == OpKind::ForloopAccum)
        running[p] = true;
  }
  return running;
}
