//===- Stabilize.cpp - Online softmax from plain softmax µGraphs ----------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Search/Stabilize.h"

#include "Mirage/Semantics/LoopPhases.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir::mirage;
using namespace mlir::mirage::search;
using sem::AccumKind;
using sem::Graph;
using sem::Node;
using sem::OpKind;
using sem::ValueType;

namespace {

constexpr OpKind kExp = sem::toOpKind(ElementwiseKind::Exp);
constexpr OpKind kSub = sem::toOpKind(ElementwiseKind::Sub);
constexpr OpKind kMul = sem::toOpKind(ElementwiseKind::Mul);

int32_t addValue(Graph &graph, ValueType type) {
  graph.values.push_back(std::move(type));
  return static_cast<int32_t>(graph.values.size() - 1);
}

ValueType withLast(ValueType type, int64_t last) {
  type.shape.back() = last;
  return type;
}

Node makeNode(OpKind kind, llvm::ArrayRef<int32_t> operands, int32_t result) {
  Node node;
  node.kind = kind;
  node.operands.assign(operands.begin(), operands.end());
  node.results = {result};
  return node;
}

/// Subtracts the maximum of its last dimension from the operand of the one
/// `exp` of `body`; returns the maximum (-1: the body has no exp), or
/// nothing when there are several.
std::optional<int32_t> shiftExp(Graph &body) {
  if (llvm::count_if(body.nodes,
                     [](const Node &node) { return node.kind == kExp; }) > 1)
    return std::nullopt;
  std::vector<sem::LoopPhase> phases = sem::computeLoopPhases(body);
  llvm::DenseMap<int32_t, sem::LoopPhase> valuePhase;
  std::vector<Node> nodes;
  int32_t max = -1;
  for (auto [index, node] : llvm::enumerate(body.nodes)) {
    for (int32_t result : node.results)
      valuePhase[result] = phases[index];
    if (node.kind != kExp) {
      nodes.push_back(node);
      continue;
    }
    int32_t x = node.operands[0];
    ValueType type = body.values[x];
    int32_t rowMax = addValue(body, withLast(type, 1));
    Node reduction = makeNode(OpKind::ReductionMax, {x}, rowMax);
    reduction.dim = static_cast<int64_t>(type.shape.size()) - 1;
    nodes.push_back(reduction);
    max = rowMax;
    // In the loop, the maximum over every iteration: a running maximum.
    if (body.forloop > 1 && valuePhase.lookup(x) == sem::LoopPhase::InLoop) {
      max = addValue(body, withLast(type, 1));
      Node accum = makeNode(OpKind::ForloopAccum, {rowMax}, max);
      accum.accum = AccumKind::Max;
      nodes.push_back(accum);
    }
    int32_t shifted = addValue(body, type);
    nodes.push_back(makeNode(kSub, {x, max}, shifted));
    Node exp = node;
    exp.operands[0] = shifted;
    nodes.push_back(exp);
  }
  body.nodes = std::move(nodes);
  return max;
}

/// Makes `combine`, the body of a combining kernel of one for-loop
/// iteration whose input `maxima` holds the first kernel's `parts` blocks'
/// maxima (the other inputs in `partInputs`), loop over the parts and add
/// each rescaled by `exp(m_part - max)`: each part's load takes one part per
/// iteration, and the strided reduction that summed its parts becomes a sum
/// over the loop of the rescaled part.
bool rescaleParts(Graph &combine, int32_t maxima, int64_t parts,
                  llvm::ArrayRef<int32_t> partInputs) {
  if (combine.forloop != 1)
    return false;
  combine.forloop = parts;
  std::vector<Node> loads, rest;
  for (Node &node : combine.nodes)
    (node.kind == OpKind::InputLoader ? loads : rest).push_back(node);
  // The maxima: one part's per iteration, and all of them.
  const Node *partLoad = nullptr;
  for (const Node &load : loads)
    if (llvm::is_contained(partInputs, load.operands[0]))
      partLoad = &load;
  if (!partLoad)
    return false;
  ValueType all = combine.values[maxima];
  for (int axis = 0; axis < 3; ++axis)
    if (partLoad->map[axis] >= 0)
      all.shape[partLoad->map[axis]] /= combine.grid[axis];
  int64_t last = static_cast<int64_t>(all.shape.size()) - 1;
  if (all.shape.back() != parts)
    return false;
  std::vector<Node> nodes = loads;
  Node loadAll =
      makeNode(OpKind::InputLoader, {maxima}, addValue(combine, all));
  loadAll.map = partLoad->map;
  Node loadOne = loadAll;
  loadOne.results = {addValue(combine, withLast(all, 1))};
  loadOne.dim = last;
  int32_t max = addValue(combine, withLast(all, 1));
  Node reduction = makeNode(OpKind::ReductionMax, {loadAll.results[0]}, max);
  reduction.dim = last;
  int32_t shifted = addValue(combine, withLast(all, 1));
  int32_t factor = addValue(combine, withLast(all, 1));
  nodes.insert(nodes.end(), {loadAll, loadOne, reduction,
                             makeNode(kSub, {loadOne.results[0], max}, shifted),
                             makeNode(kExp, {shifted}, factor)});
  // Each part's load takes one part; its strided reduction becomes the sum
  // of the rescaled parts.
  llvm::DenseSet<int32_t> partTiles;
  for (Node &load : nodes) {
    if (load.kind != OpKind::InputLoader ||
        !llvm::is_contained(partInputs, load.operands[0]))
      continue;
    ValueType &tile = combine.values[load.results[0]];
    if (load.dim >= 0 || tile.shape.back() % parts != 0)
      return false;
    tile.shape.back() /= parts;
    load.dim = last;
    partTiles.insert(load.results[0]);
  }
  for (Node node : rest) {
    if (llvm::none_of(node.operands, [&](int32_t operand) {
          return partTiles.contains(operand);
        })) {
      nodes.push_back(node);
      continue;
    }
    int32_t part = node.operands[0];
    int64_t width = combine.values[part].shape.back();
    if (node.kind != OpKind::Reduction || node.dim != last ||
        (node.size != width && node.size != 1))
      return false;
    int32_t scaled = addValue(combine, combine.values[part]);
    nodes.push_back(makeNode(kMul, {part, factor}, scaled));
    Node accum = makeNode(OpKind::ForloopAccum, {scaled}, node.results[0]);
    accum.accum =
        node.size == 1 && width != 1 ? AccumKind::SumLast : AccumKind::Sum;
    nodes.push_back(accum);
  }
  combine.nodes = std::move(nodes);
  return true;
}

} // namespace

std::optional<sem::Program>
mlir::mirage::search::removeMaxShifts(const sem::Program &reference,
                                      std::string &why) {
  sem::Program plain = reference;
  Graph &kernel = plain.graphs.front();
  llvm::DenseMap<int32_t, int32_t> replaced;
  llvm::SmallVector<size_t> removed;
  for (auto [index, node] : llvm::enumerate(kernel.nodes)) {
    if (node.kind != OpKind::ReductionMax)
      continue;
    int32_t scores = node.operands[0], max = node.results[0];
    if (node.dim + 1 != int64_t(kernel.values[scores].shape.size())) {
      why = "a reduction_max of another dimension than the last";
      return std::nullopt;
    }
    removed.push_back(index);
    for (auto [userIndex, user] : llvm::enumerate(kernel.nodes)) {
      if (!llvm::is_contained(user.operands, max))
        continue;
      if (user.kind != kSub || user.operands[0] != scores ||
          user.operands[1] != max) {
        why = "a reduction_max that does not only shift its own operand";
        return std::nullopt;
      }
      replaced[user.results[0]] = scores;
      removed.push_back(userIndex);
    }
  }
  if (removed.empty()) {
    why = "no reduction_max";
    return std::nullopt;
  }
  std::vector<Node> nodes;
  for (auto [index, node] : llvm::enumerate(kernel.nodes)) {
    if (llvm::is_contained(removed, index))
      continue;
    for (int32_t &operand : node.operands)
      operand = replaced.lookup_or(operand, operand);
    nodes.push_back(node);
  }
  for (int32_t &output : kernel.outputs)
    output = replaced.lookup_or(output, output);
  kernel.nodes = std::move(nodes);
  return plain;
}

std::optional<sem::Program>
mlir::mirage::search::stabilize(const sem::Program &candidate) {
  sem::Program program = candidate;
  Graph &kernel = program.graphs.front();
  for (const Node &node : kernel.nodes)
    if (node.kind == kExp)
      return std::nullopt;
  for (size_t g = 1; g < program.graphs.size(); ++g)
    for (const Node &node : program.graphs[g].nodes)
      if (node.kind == OpKind::ThreadGraph &&
          llvm::any_of(program.graphs[node.body].nodes,
                       [](const Node &inner) { return inner.kind == kExp; }))
        return std::nullopt;
  // Kernel-graph node indices: the graph_def nodes may gain results. A
  // combining kernel, once rescaling, is not shifted again.
  llvm::SmallVector<size_t> combiners;
  for (size_t n = 0; n < kernel.nodes.size(); ++n) {
    if (kernel.nodes[n].kind != OpKind::GraphDef ||
        llvm::is_contained(combiners, n))
      continue;
    Graph &body = program.graphs[kernel.nodes[n].body];
    std::optional<int32_t> max = shiftExp(body);
    if (!max)
      return std::nullopt;
    if (*max < 0)
      continue;
    // The graph_defs that read this one's results combine its parts.
    llvm::SmallVector<size_t> readers;
    for (size_t r = n + 1; r < kernel.nodes.size(); ++r)
      if (kernel.nodes[r].kind == OpKind::GraphDef &&
          llvm::any_of(kernel.nodes[r].operands, [&](int32_t operand) {
            return llvm::is_contained(kernel.nodes[n].results, operand);
          }))
        readers.push_back(r);
    if (readers.empty())
      continue;
    if (readers.size() != 1)
      return std::nullopt;
    // Save the maxima as the row sums are saved.
    auto saver = llvm::find_if(body.nodes, [&](const Node &node) {
      return node.kind == OpKind::OutputSaver &&
             body.values[node.operands[0]].shape == body.values[*max].shape;
    });
    if (saver == body.nodes.end())
      return std::nullopt;
    size_t position =
        llvm::find(body.outputs, saver->results[0]) - body.outputs.begin();
    Node save = *saver;
    save.operands = {*max};
    save.results = {addValue(body, body.values[saver->results[0]])};
    body.nodes.push_back(save);
    body.outputs.push_back(save.results[0]);
    int32_t maxima =
        addValue(kernel, kernel.values[kernel.nodes[n].results[position]]);
    kernel.nodes[n].results.push_back(maxima);
    // The combining kernel reads them and rescales the parts.
    combiners.push_back(readers.front());
    Node &reader = kernel.nodes[readers.front()];
    Graph &combine = program.graphs[reader.body];
    llvm::SmallVector<int32_t> partInputs;
    for (auto [i, operand] : llvm::enumerate(reader.operands)) {
      if (!llvm::is_contained(kernel.nodes[n].results, operand))
        return std::nullopt;
      partInputs.push_back(combine.inputs[i]);
    }
    reader.operands.push_back(maxima);
    int32_t maximaInput = addValue(combine, kernel.values[maxima]);
    combine.inputs.push_back(maximaInput);
    if (!rescaleParts(combine, maximaInput, kernel.values[maxima].shape.back(),
                      partInputs))
      return std::nullopt;
  }
  return program;
}
