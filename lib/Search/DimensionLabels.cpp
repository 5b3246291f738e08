//===- DimensionLabels.cpp - Which dimensions a reference reduces ---------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Search/DimensionLabels.h"

#include "Mirage/Semantics/ParallelDimensions.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir::mirage;
using namespace mlir::mirage::search;

bool DimensionLabels::isReduced(int32_t label) const {
  return !llvm::is_contained(output, label);
}

bool DimensionLabels::isSummed(int32_t label) const {
  return llvm::is_contained(summed, label);
}

bool DimensionLabels::isNormalised(int32_t label) const {
  return llvm::is_contained(normalised, label);
}

DimensionLabels search::labelDimensions(const sem::Program &reference) {
  const sem::Graph &kernel = reference.getKernelGraph();
  std::vector<llvm::SmallVector<int32_t, 4>> classes =
      sem::classifyDimensions(kernel);
  DimensionLabels labels;
  for (int32_t input : kernel.inputs)
    labels.inputs.emplace_back(classes[input]);
  labels.output = classes[kernel.outputs.front()];
  for (const sem::Node &node : kernel.nodes)
    if (node.kind == sem::OpKind::Reduction)
      labels.summed.push_back(classes[node.operands[0]][node.dim]);
    else if (node.kind == sem::OpKind::RmsNorm)
      labels.normalised.push_back(classes[node.operands[0]].back());
  return labels;
}
