//===- KernelPrefix.cpp - Library ops before the searched kernels ---------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Search/KernelPrefix.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::mirage;
using namespace mlir::mirage::search;
using sem::Graph;
using sem::Node;
using sem::OpKind;

namespace {

/// Appends a value of type `type` to `graph`; returns its number.
int32_t addValue(Graph &graph, const sem::ValueType &type) {
  graph.values.push_back(type);
  return static_cast<int32_t>(graph.values.size() - 1);
}

/// Appends `node` to `into`, its operands renamed by `ids` and its results
/// new values of `into` of the types they have in `from` (recorded in
/// `ids`); false when an operand has no name in `into`.
bool appendRenamed(const Node &node, const Graph &from, Graph &into,
                   llvm::DenseMap<int32_t, int32_t> &ids) {
  Node copy = node;
  for (int32_t &operand : copy.operands) {
    auto it = ids.find(operand);
    if (it == ids.end())
      return false;
    operand = it->second;
  }
  for (int32_t &result : copy.results) {
    int32_t renamed = addValue(into, from.values[result]);
    ids[result] = renamed;
    result = renamed;
  }
  into.nodes.push_back(std::move(copy));
  return true;
}

/// A program of kernel graph `kernel` and the bodies of `program`.
sem::Program withBodiesOf(const sem::Program &program, Graph kernel) {
  sem::Program result;
  result.graphs.push_back(std::move(kernel));
  result.graphs.insert(result.graphs.end(), std::next(program.graphs.begin()),
                       program.graphs.end());
  return result;
}

/// Whether kernel ops `a` and `b` compute the same from operands that are
/// the same inputs (`aInputs` and `bInputs` list each graph's inputs).
bool sameLeadingOp(const Node &a, ArrayRef<int32_t> aInputs, const Node &b,
                   ArrayRef<int32_t> bInputs) {
  if (a.kind != b.kind || a.dim != b.dim || a.size != b.size ||
      a.scalar != b.scalar || a.accum != b.accum ||
      a.operands.size() != b.operands.size())
    return false;
  for (auto [x, y] : llvm::zip(a.operands, b.operands)) {
    auto px = llvm::find(aInputs, x), py = llvm::find(bInputs, y);
    if (px == aInputs.end() || py == bInputs.end() ||
        px - aInputs.begin() != py - bInputs.begin())
      return false;
  }
  return true;
}

} // namespace

SmallVector<int32_t> search::getLeadingOps(const sem::Program &reference) {
  const Graph &kernel = reference.getKernelGraph();
  SmallVector<int32_t> leading;
  for (auto [index, node] : llvm::enumerate(kernel.nodes))
    if (node.kind != OpKind::GraphDef && node.kind != OpKind::ThreadGraph &&
        node.results.size() == 1 &&
        !llvm::is_contained(kernel.outputs, node.results[0]) &&
        llvm::all_of(node.operands, [&](int32_t operand) {
          return llvm::is_contained(kernel.inputs, operand);
        }))
      leading.push_back(static_cast<int32_t>(index));
  return leading;
}

PrefixCut search::cutAfter(const sem::Program &reference, int32_t node) {
  const Graph &kernel = reference.getKernelGraph();
  const Node &kept = kernel.nodes[node];
  PrefixCut cut;
  cut.node = node;
  Graph rest;
  llvm::DenseMap<int32_t, int32_t> ids;
  auto addInput = [&](int32_t value) {
    ids[value] = addValue(rest, kernel.values[value]);
    rest.inputs.push_back(ids[value]);
    cut.restInputs.push_back(value);
  };
  for (int32_t input : kernel.inputs) {
    bool read = llvm::is_contained(kernel.outputs, input);
    for (auto [index, other] : llvm::enumerate(kernel.nodes))
      read |=
          int32_t(index) != node && llvm::is_contained(other.operands, input);
    if (read)
      addInput(input);
  }
  addInput(kept.results[0]);
  for (auto [index, other] : llvm::enumerate(kernel.nodes))
    if (int32_t(index) != node)
      (void)appendRenamed(other, kernel, rest, ids);
  for (int32_t output : kernel.outputs)
    rest.outputs.push_back(ids.lookup(output));
  cut.rest = withBodiesOf(reference, std::move(rest));
  return cut;
}

sem::Program search::composeAfter(const sem::Program &reference,
                                  const PrefixCut &cut,
                                  const sem::Program &candidate) {
  const Graph &kernel = reference.getKernelGraph();
  Graph composed;
  llvm::DenseMap<int32_t, int32_t> referenceIds;
  for (int32_t input : kernel.inputs) {
    referenceIds[input] = addValue(composed, kernel.values[input]);
    composed.inputs.push_back(referenceIds[input]);
  }
  (void)appendRenamed(kernel.nodes[cut.node], kernel, composed, referenceIds);
  const Graph &rest = candidate.getKernelGraph();
  llvm::DenseMap<int32_t, int32_t> ids;
  for (auto [input, value] : llvm::zip(rest.inputs, cut.restInputs))
    ids[input] = referenceIds.lookup(value);
  for (const Node &node : rest.nodes)
    (void)appendRenamed(node, rest, composed, ids);
  for (int32_t output : rest.outputs)
    composed.outputs.push_back(ids.lookup(output));
  return withBodiesOf(candidate, std::move(composed));
}

std::optional<sem::Program> search::splitAfter(const sem::Program &reference,
                                               const sem::Program &candidate,
                                               PrefixCut &cut) {
  const Graph &kernel = reference.getKernelGraph();
  const Graph &graph = candidate.getKernelGraph();
  if (graph.nodes.empty() || graph.inputs.size() != kernel.inputs.size() ||
      graph.nodes[0].kind == OpKind::GraphDef ||
      llvm::any_of(llvm::drop_begin(graph.nodes), [](const Node &node) {
        return node.kind != OpKind::GraphDef;
      }))
    return std::nullopt;
  const Node &first = graph.nodes[0];
  SmallVector<int32_t> leadingOps = getLeadingOps(reference);
  auto leading = llvm::find_if(leadingOps, [&](int32_t node) {
    return sameLeadingOp(kernel.nodes[node], kernel.inputs, first,
                         graph.inputs);
  });
  if (leading == leadingOps.end())
    return std::nullopt;
  cut = cutAfter(reference, *leading);
  // The rest's inputs, as the candidate names them.
  Graph rest;
  llvm::DenseMap<int32_t, int32_t> ids;
  for (int32_t value : cut.restInputs) {
    auto input = llvm::find(kernel.inputs, value);
    int32_t named =
        input == kernel.inputs.end()
            ? first.results[0]
            : graph.inputs[static_cast<size_t>(input - kernel.inputs.begin())];
    ids[named] = addValue(rest, graph.values[named]);
    rest.inputs.push_back(ids[named]);
  }
  for (const Node &node : llvm::drop_begin(graph.nodes))
    if (!appendRenamed(node, graph, rest, ids))
      return std::nullopt;
  for (int32_t output : graph.outputs) {
    auto it = ids.find(output);
    if (it == ids.end())
      return std::nullopt;
    rest.outputs.push_back(it->second);
  }
  return withBodiesOf(candidate, std::move(rest));
}
