//===- DimensionLabels.cpp - Which dimensions a reference reduces ---------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Search/DimensionLabels.h"

#include "llvm/ADT/STLExtras.h"

#include <numeric>

using namespace mlir::mirage;
using namespace mlir::mirage::search;
using sem::Graph;
using sem::Node;
using sem::OpKind;

namespace {

/// Union-find over the dimensions of a graph's values.
class DimensionClasses {
public:
  explicit DimensionClasses(const Graph &graph) : graph(graph) {
    for (const sem::ValueType &type : graph.values) {
      offsets.push_back(parents.size());
      parents.resize(parents.size() + type.shape.size());
    }
    std::iota(parents.begin(), parents.end(), 0);
  }

  int32_t find(int32_t value, int64_t dim) {
    return find(offsets[value] + dim);
  }
  void unite(int32_t a, int64_t dimA, int32_t b, int64_t dimB) {
    parents[find(a, dimA)] = find(b, dimB);
  }
  /// Unites the dimensions of `a` and `b` from the last, where their extents
  /// agree (a broadcast dimension of extent 1 stays apart).
  void uniteElementwise(int32_t a, int32_t b) {
    llvm::ArrayRef<int64_t> shapeA = graph.values[a].shape;
    llvm::ArrayRef<int64_t> shapeB = graph.values[b].shape;
    for (size_t i = 1; i <= std::min(shapeA.size(), shapeB.size()); ++i)
      if (shapeA[shapeA.size() - i] == shapeB[shapeB.size() - i])
        unite(a, shapeA.size() - i, b, shapeB.size() - i);
  }

private:
  int32_t find(int32_t node) {
    while (parents[node] != node)
      node = parents[node] = parents[parents[node]];
    return node;
  }

  const Graph &graph;
  std::vector<int32_t> offsets;
  std::vector<int32_t> parents;
};

void uniteOperands(DimensionClasses &classes, const Graph &graph,
                   const Node &node) {
  int32_t result = node.results.front();
  if (sem::isUnary(node.kind) || sem::isBinary(node.kind) ||
      node.kind == OpKind::RmsNorm) {
    for (int32_t operand : node.operands)
      classes.uniteElementwise(operand, result);
    return;
  }
  if (node.kind == OpKind::Matmul) {
    int32_t a = node.operands[0], b = node.operands[1];
    int64_t rank = graph.values[result].shape.size();
    for (int64_t d = 0; d + 2 < rank; ++d) {
      classes.unite(a, d, result, d);
      classes.unite(b, d, result, d);
    }
    classes.unite(a, rank - 2, result, rank - 2);
    classes.unite(b, rank - 1, result, rank - 1);
    classes.unite(a, rank - 1, b, rank - 2);
    return;
  }
  if (node.kind == OpKind::Reduction) {
    int64_t rank = graph.values[result].shape.size();
    for (int64_t d = 0; d < rank; ++d)
      if (d != node.dim)
        classes.unite(node.operands[0], d, result, d);
  }
}

} // namespace

bool DimensionLabels::isReduced(int32_t label) const {
  return !llvm::is_contained(output, label);
}

DimensionLabels search::labelDimensions(const sem::Program &reference) {
  const Graph &kernel = reference.getKernelGraph();
  DimensionClasses classes(kernel);
  for (const Node &node : kernel.nodes)
    uniteOperands(classes, kernel, node);
  DimensionLabels labels;
  for (int32_t input : kernel.inputs) {
    labels.inputs.emplace_back();
    for (size_t d = 0; d < kernel.values[input].shape.size(); ++d)
      labels.inputs.back().push_back(classes.find(input, d));
  }
  int32_t output = kernel.outputs.front();
  for (size_t d = 0; d < kernel.values[output].shape.size(); ++d)
    labels.output.push_back(classes.find(output, d));
  return labels;
}
