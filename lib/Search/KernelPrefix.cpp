//===- KernelPrefix.cpp - References cut in two, searched apart -----------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Search/KernelPrefix.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVectorExtras.h"

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

/// The node computing each value of `kernel`.
llvm::DenseMap<int32_t, int32_t> getProducers(const Graph &kernel) {
  llvm::DenseMap<int32_t, int32_t> producer;
  for (auto [index, node] : llvm::enumerate(kernel.nodes))
    for (int32_t result : node.results)
      producer[result] = static_cast<int32_t>(index);
  return producer;
}

/// Marks `node` of `kernel` and the nodes it depends on, up to the values
/// of `stops` (whose producers it does not mark unless another path leads
/// to them).
SmallVector<bool> getCone(const Graph &kernel,
                          const llvm::DenseMap<int32_t, int32_t> &producer,
                          int32_t node, ArrayRef<int32_t> stops) {
  SmallVector<bool> inCone(kernel.nodes.size(), false);
  SmallVector<int32_t> work = {node};
  while (!work.empty()) {
    int32_t index = work.pop_back_val();
    if (inCone[index])
      continue;
    inCone[index] = true;
    for (int32_t operand : kernel.nodes[index].operands)
      if (auto it = producer.find(operand);
          it != producer.end() && !llvm::is_contained(stops, operand))
        work.push_back(it->second);
  }
  return inCone;
}

/// The program of the nodes of `reference`'s kernel graph that `selected`
/// marks, in their order, computing the reference's values `outputs`. Its
/// inputs (recorded in `inputs` as the reference's values) are the
/// reference's inputs those nodes read or `outputs` returns, in order, then
/// `extra`, values computed elsewhere.
sem::Program extractProgram(const sem::Program &reference,
                            ArrayRef<bool> selected, ArrayRef<int32_t> extra,
                            ArrayRef<int32_t> outputs,
                            SmallVector<int32_t> &inputs) {
  const Graph &kernel = reference.getKernelGraph();
  Graph side;
  llvm::DenseMap<int32_t, int32_t> ids;
  auto addInput = [&](int32_t value) {
    ids[value] = addValue(side, kernel.values[value]);
    side.inputs.push_back(ids[value]);
    inputs.push_back(value);
  };
  for (int32_t input : kernel.inputs) {
    bool read = llvm::is_contained(outputs, input);
    for (auto [index, node] : llvm::enumerate(kernel.nodes))
      read |= selected[index] && llvm::is_contained(node.operands, input);
    if (read)
      addInput(input);
  }
  for (int32_t value : extra)
    addInput(value);
  for (auto [index, node] : llvm::enumerate(kernel.nodes))
    if (selected[index])
      (void)appendRenamed(node, kernel, side, ids);
  for (int32_t output : outputs)
    side.outputs.push_back(ids.lookup(output));
  return withBodiesOf(reference, std::move(side));
}

/// One program of a composition: it reads the reference's values `inputs`
/// and computes its values `outputs`.
struct Step {
  const sem::Program *program;
  ArrayRef<int32_t> inputs;
  ArrayRef<int32_t> outputs;
};

/// The program computing `reference` by `steps`, one after the other: each
/// reads the reference's inputs and the values of the steps before it.
sem::Program composeSteps(const sem::Program &reference, ArrayRef<Step> steps) {
  const Graph &kernel = reference.getKernelGraph();
  Graph composed;
  llvm::DenseMap<int32_t, int32_t> referenceIds;
  for (int32_t input : kernel.inputs) {
    referenceIds[input] = addValue(composed, kernel.values[input]);
    composed.inputs.push_back(referenceIds[input]);
  }
  sem::Program result;
  result.graphs.emplace_back();
  for (const Step &step : steps) {
    // The step's nodes, its bodies after those already there.
    const Graph &graph = step.program->getKernelGraph();
    int32_t offset = static_cast<int32_t>(result.graphs.size()) - 1;
    for (const Graph &body : llvm::drop_begin(step.program->graphs)) {
      result.graphs.push_back(body);
      for (Node &node : result.graphs.back().nodes)
        if (node.body >= 0)
          node.body += offset;
    }
    llvm::DenseMap<int32_t, int32_t> ids;
    for (auto [input, value] : llvm::zip(graph.inputs, step.inputs))
      ids[input] = referenceIds.lookup(value);
    for (const Node &node : graph.nodes) {
      (void)appendRenamed(node, graph, composed, ids);
      if (composed.nodes.back().body >= 0)
        composed.nodes.back().body += offset;
    }
    for (auto [output, value] : llvm::zip(graph.outputs, step.outputs))
      referenceIds[value] = ids.lookup(output);
  }
  for (int32_t output : kernel.outputs)
    composed.outputs.push_back(referenceIds.lookup(output));
  result.graphs.front() = std::move(composed);
  return result;
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
  // A leading op's result is no output, and it is its prefix's only value.
  return *cutAt(reference, node);
}

std::optional<PrefixCut> search::cutAt(const sem::Program &reference,
                                       int32_t node) {
  const Graph &kernel = reference.getKernelGraph();
  const Node &cutNode = kernel.nodes[node];
  if (cutNode.results.size() != 1 ||
      llvm::is_contained(kernel.outputs, cutNode.results[0]))
    return std::nullopt;
  int32_t cutValue = cutNode.results[0];
  llvm::DenseMap<int32_t, int32_t> producer = getProducers(kernel);
  SmallVector<bool> inPrefix = getCone(kernel, producer, node, {});
  // The rest may read the cut value only.
  for (auto [index, other] : llvm::enumerate(kernel.nodes))
    if (!inPrefix[index])
      for (int32_t operand : other.operands)
        if (operand != cutValue && producer.count(operand) &&
            inPrefix[producer.lookup(operand)])
          return std::nullopt;
  PrefixCut cut;
  cut.node = node;
  cut.prefix =
      extractProgram(reference, inPrefix, {}, {cutValue}, cut.prefixInputs);
  SmallVector<bool> inRest =
      llvm::map_to_vector(inPrefix, [](bool inside) { return !inside; });
  cut.rest = extractProgram(reference, inRest, {cutValue}, kernel.outputs,
                            cut.restInputs);
  return cut;
}

SmallVector<OutputPart> search::getOutputParts(const sem::Program &reference) {
  const Graph &kernel = reference.getKernelGraph();
  llvm::DenseMap<int32_t, int32_t> producer = getProducers(kernel);
  SmallVector<int32_t> computed;
  for (const Node &node : kernel.nodes)
    for (int32_t result : node.results)
      if (llvm::is_contained(kernel.outputs, result))
        computed.push_back(result);
  SmallVector<OutputPart> parts;
  for (int32_t output : computed) {
    SmallVector<int32_t> earlier = llvm::map_to_vector(
        parts, [](const OutputPart &part) { return part.output; });
    SmallVector<bool> cone =
        getCone(kernel, producer, producer.lookup(output), earlier);
    // The earlier outputs it reads, as inputs.
    SmallVector<int32_t> read;
    for (int32_t value : earlier)
      if (llvm::any_of(llvm::enumerate(kernel.nodes), [&](auto indexed) {
            return cone[indexed.index()] &&
                   llvm::is_contained(indexed.value().operands, value);
          }))
        read.push_back(value);
    OutputPart part;
    part.output = output;
    part.program = extractProgram(reference, cone, read, {output}, part.inputs);
    parts.push_back(std::move(part));
  }
  return parts;
}

SmallVector<int32_t> search::getCuts(const sem::Program &reference) {
  const Graph &kernel = reference.getKernelGraph();
  auto isMatmul = [](const Node &node) { return node.kind == OpKind::Matmul; };
  SmallVector<int32_t> cuts;
  for (auto [index, node] : llvm::enumerate(kernel.nodes)) {
    if (node.results.size() != 1)
      continue;
    bool readByMatmulsOnly = true, read = false;
    for (const Node &other : kernel.nodes)
      if (llvm::is_contained(other.operands, node.results[0])) {
        read = true;
        readByMatmulsOnly &= isMatmul(other);
      }
    if (!read || !readByMatmulsOnly)
      continue;
    std::optional<PrefixCut> cut = cutAt(reference, int32_t(index));
    if (!cut)
      continue;
    const Graph &prefix = cut->prefix.getKernelGraph();
    if (prefix.nodes.size() >= 2 &&
        cut->rest.getKernelGraph().nodes.size() >= 2 &&
        llvm::any_of(prefix.nodes, isMatmul))
      cuts.push_back(static_cast<int32_t>(index));
  }
  return cuts;
}

sem::Program search::compose(const sem::Program &reference,
                             const PrefixCut &cut, const sem::Program &prefix,
                             const sem::Program &rest) {
  const Graph &kernel = reference.getKernelGraph();
  const int32_t &cutValue = kernel.nodes[cut.node].results[0];
  Step steps[] = {{&prefix, cut.prefixInputs, cutValue},
                  {&rest, cut.restInputs, kernel.outputs}};
  return composeSteps(reference, steps);
}

sem::Program search::composeParts(const sem::Program &reference,
                                  ArrayRef<OutputPart> parts,
                                  ArrayRef<const sem::Program *> programs) {
  SmallVector<Step> steps;
  for (auto [part, program] : llvm::zip_equal(parts, programs))
    steps.push_back({program, part.inputs, part.output});
  return composeSteps(reference, steps);
}

sem::Program search::composeAfter(const sem::Program &reference,
                                  const PrefixCut &cut,
                                  const sem::Program &candidate) {
  return compose(reference, cut, cut.prefix, candidate);
}

std::optional<sem::Program> search::splitAfter(const sem::Program &reference,
                                               const sem::Program &candidate,
                                               PrefixCut &cut) {
  const Graph &kernel = reference.getKernelGraph();
  const Graph &graph = candidate.getKernelGraph();
  // The leading op, graph_defs (between which a unary op of an input that
  // the search hoists from a combining kernel), and perhaps a final
  // elementwise op that it hoists from the last graph_def.
  if (graph.nodes.size() < 2 || graph.inputs.size() != kernel.inputs.size() ||
      graph.nodes[0].kind == OpKind::GraphDef ||
      graph.nodes[1].kind != OpKind::GraphDef ||
      llvm::any_of(llvm::drop_end(llvm::drop_begin(graph.nodes)),
                   [](const Node &node) {
                     return node.kind != OpKind::GraphDef &&
                            !sem::isUnary(node.kind);
                   }) ||
      (graph.nodes.back().kind != OpKind::GraphDef &&
       !sem::isBinary(graph.nodes.back().kind)))
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
