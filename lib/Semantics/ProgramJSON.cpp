//===- ProgramJSON.cpp - Programs to and from JSON ------------------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Semantics/ProgramJSON.h"

#include <optional>

using namespace mlir::mirage::sem;
namespace json = llvm::json;

// The readers of the parts are found by argument-dependent lookup from
// json::ObjectMapper, so they live in the namespace of the types they read.
namespace mlir::mirage::sem {
namespace {

constexpr OpKind kLastOpKind = OpKind::ClusterReduceScatter;
constexpr AccumKind kLastAccumKind = AccumKind::Max;

llvm::StringRef getElementTypeName(ElementType type) {
  switch (type) {
  case ElementType::F16: return "f16";
  case ElementType::BF16: return "bf16";
  case ElementType::F32: return "f32";
  }
  llvm_unreachable("unknown element type");
}

json::Value toJSON(const ValueType &type) {
  return json::Object{{"shape", json::Array(type.shape)},
                      {"type", getElementTypeName(type.elementType)}};
}

json::Value toJSON(const Node &node) {
  return json::Object{{"kind", getOpName(node.kind)},
                      {"operands", json::Array(node.operands)},
                      {"results", json::Array(node.results)},
                      {"dim", node.dim},
                      {"size", node.size},
                      {"scalar", node.scalar},
                      {"map", json::Array(node.map)},
                      {"accum", static_cast<int64_t>(node.accum)},
                      {"body", node.body}};
}

json::Value toJSON(const Graph &graph) {
  json::Array values, nodes;
  for (const ValueType &type : graph.values)
    values.push_back(toJSON(type));
  for (const Node &node : graph.nodes)
    nodes.push_back(toJSON(node));
  return json::Object{{"values", std::move(values)},
                      {"nodes", std::move(nodes)},
                      {"inputs", json::Array(graph.inputs)},
                      {"outputs", json::Array(graph.outputs)},
                      {"grid", json::Array(graph.grid)},
                      {"cluster", json::Array(graph.cluster)},
                      {"forloop", graph.forloop}};
}

/// Reads an array of exactly N integers into `out`.
template <typename T, size_t N>
bool readFixed(const json::Value &json, llvm::StringLiteral key,
               std::array<T, N> &out, json::Path path) {
  std::vector<T> values;
  if (!json::ObjectMapper(json, path).map(key, values))
    return false;
  if (values.size() != N) {
    path.field(key).report("wrong number of entries");
    return false;
  }
  llvm::copy(values, out.begin());
  return true;
}

} // namespace

bool fromJSON(const json::Value &json, ValueType &type, json::Path path) {
  json::ObjectMapper mapper(json, path);
  std::vector<int64_t> shape;
  std::string name;
  if (!mapper || !mapper.map("shape", shape) || !mapper.map("type", name))
    return false;
  if (llvm::any_of(shape, [](int64_t extent) { return extent < 1; })) {
    path.field("shape").report("extents must be positive");
    return false;
  }
  type.shape.assign(shape.begin(), shape.end());
  for (ElementType candidate :
       {ElementType::F16, ElementType::BF16, ElementType::F32})
    if (name == getElementTypeName(candidate)) {
      type.elementType = candidate;
      return true;
    }
  path.field("type").report("unknown element type");
  return false;
}

bool fromJSON(const json::Value &json, Node &node, json::Path path) {
  json::ObjectMapper mapper(json, path);
  std::string kind;
  std::vector<int32_t> operands, results;
  int64_t accum;
  if (!mapper || !mapper.map("kind", kind) ||
      !mapper.map("operands", operands) || !mapper.map("results", results) ||
      !mapper.map("dim", node.dim) || !mapper.map("size", node.size) ||
      !mapper.map("scalar", node.scalar) || !mapper.map("accum", accum) ||
      !mapper.map("body", node.body) ||
      !readFixed(json, "map", node.map, path))
    return false;
  node.operands.assign(operands.begin(), operands.end());
  node.results.assign(results.begin(), results.end());
  if (accum < 0 || accum > static_cast<int64_t>(kLastAccumKind)) {
    path.field("accum").report("unknown accumulation kind");
    return false;
  }
  node.accum = static_cast<AccumKind>(accum);
  for (uint8_t k = 0; k <= static_cast<uint8_t>(kLastOpKind); ++k)
    if (kind == getOpName(static_cast<OpKind>(k))) {
      node.kind = static_cast<OpKind>(k);
      return true;
    }
  path.field("kind").report("unknown op");
  return false;
}

namespace {

/// The operands and results a node of `kind` has, or nothing where its body
/// (graph_def, thread_graph) or its `size` (chunk) decides.
std::optional<std::pair<size_t, size_t>> getArity(OpKind kind) {
  if (kind == OpKind::GraphDef || kind == OpKind::ThreadGraph ||
      kind == OpKind::Chunk)
    return std::nullopt;
  if (isBinary(kind) || kind == OpKind::Matmul || kind == OpKind::Concat)
    return std::make_pair(2, 1);
  return std::make_pair(1, 1);
}

/// Whether `graph` (number `index` of `graphs`) is well formed, as the
/// engines assume: every index refers to one of its values, every value is
/// defined once (an input or a node's result) before it is used (so there
/// is no cycle), nodes have their kind's operands and results, and every
/// body is a later graph with as many inputs and outputs as its node has
/// operands and results.
bool checkStructure(const Graph &graph, size_t index,
                    llvm::ArrayRef<Graph> graphs, json::Path path) {
  auto inRange = [&](llvm::ArrayRef<int32_t> values) {
    return llvm::all_of(values, [&](int32_t value) {
      return value >= 0 && static_cast<size_t>(value) < graph.values.size();
    });
  };
  if (!inRange(graph.inputs) || !inRange(graph.outputs)) {
    path.report("an input or output is not a value of the graph");
    return false;
  }
  std::vector<bool> defined(graph.values.size(), false);
  auto define = [&](llvm::ArrayRef<int32_t> values) {
    for (int32_t value : values) {
      if (defined[value])
        return false;
      defined[value] = true;
    }
    return true;
  };
  auto areDefined = [&](llvm::ArrayRef<int32_t> values) {
    return llvm::all_of(values, [&](int32_t value) { return defined[value]; });
  };
  if (!define(graph.inputs)) {
    path.field("inputs").report("a value is an input twice");
    return false;
  }
  for (auto [i, node] : llvm::enumerate(graph.nodes)) {
    // A json::Path refers to its parent: build it where it is reported.
    auto report = [&, i = i](llvm::StringLiteral message) {
      path.field("nodes").index(i).report(message);
      return false;
    };
    if (!inRange(node.operands) || !inRange(node.results)) {
      return report("an operand or result is not a value of the graph");
    }
    if (!areDefined(node.operands)) {
      return report("an operand is not defined before the node");
    }
    if (!define(node.results)) {
      return report("a result is defined twice");
    }
    std::optional<std::pair<size_t, size_t>> arity = getArity(node.kind);
    if (node.kind == OpKind::Chunk)
      arity = {1, static_cast<size_t>(std::max<int64_t>(node.size, 0))};
    bool hasBody =
        node.kind == OpKind::GraphDef || node.kind == OpKind::ThreadGraph;
    if (hasBody) {
      if (node.body <= static_cast<int32_t>(index) ||
          static_cast<size_t>(node.body) >= graphs.size()) {
        return report("body is not a later graph");
      }
      const Graph &body = graphs[node.body];
      arity = {body.inputs.size(), body.outputs.size()};
    }
    if (node.operands.size() != arity->first ||
        node.results.size() != arity->second || node.results.empty()) {
      return report("wrong number of operands or results");
    }
  }
  if (!areDefined(graph.outputs)) {
    path.field("outputs").report("an output is not defined");
    return false;
  }
  return true;
}

} // namespace

bool fromJSON(const json::Value &json, Graph &graph, json::Path path) {
  json::ObjectMapper mapper(json, path);
  if (!mapper || !mapper.map("values", graph.values) ||
      !mapper.map("nodes", graph.nodes) ||
      !mapper.map("inputs", graph.inputs) ||
      !mapper.map("outputs", graph.outputs) ||
      !mapper.map("forloop", graph.forloop) ||
      !readFixed(json, "grid", graph.grid, path) ||
      !readFixed(json, "cluster", graph.cluster, path))
    return false;
  auto positive = [](int64_t extent) { return extent >= 1; };
  if (graph.forloop < 1 || !llvm::all_of(graph.grid, positive) ||
      !llvm::all_of(graph.cluster, positive)) {
    path.report("grid, cluster and forloop must be positive");
    return false;
  }
  return true;
}

} // namespace mlir::mirage::sem

json::Value mlir::mirage::sem::toJSON(const Program &program) {
  json::Array graphs;
  for (const Graph &graph : program.graphs)
    graphs.push_back(toJSON(graph));
  return json::Object{{"graphs", std::move(graphs)}};
}

bool mlir::mirage::sem::fromJSON(const json::Value &json, Program &program,
                                 json::Path path) {
  json::ObjectMapper mapper(json, path);
  if (!mapper || !mapper.map("graphs", program.graphs))
    return false;
  if (program.graphs.empty()) {
    path.field("graphs").report("a program has a kernel graph");
    return false;
  }
  for (auto [index, graph] : llvm::enumerate(program.graphs))
    if (!checkStructure(graph, index, program.graphs,
                        path.field("graphs").index(index)))
      return false;
  return true;
}
