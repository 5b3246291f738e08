//===- ProgramJSON.cpp - Programs to and from JSON ------------------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Semantics/ProgramJSON.h"
#include "Mirage/Support/Chip.h"

#include "llvm/ADT/SmallVectorExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/SHA256.h"

#include <limits>

using namespace mlir::mirage::sem;
namespace json = llvm::json;

namespace {

// The keys of the form (docs/Runtime.md, "Programs"). Op names, element
// type names and accumulator names are those of Program.h.
constexpr llvm::StringLiteral kValues = "values";
constexpr llvm::StringLiteral kInputs = "inputs";
constexpr llvm::StringLiteral kOutputs = "outputs";
constexpr llvm::StringLiteral kOps = "ops";
constexpr llvm::StringLiteral kShape = "shape";
constexpr llvm::StringLiteral kDType = "dtype";
constexpr llvm::StringLiteral kOp = "op";
constexpr llvm::StringLiteral kOperands = "operands";
constexpr llvm::StringLiteral kResults = "results";
constexpr llvm::StringLiteral kBody = "body";
constexpr llvm::StringLiteral kGrid = "grid";
constexpr llvm::StringLiteral kCluster = "cluster";
constexpr llvm::StringLiteral kForloop = "forloop";
constexpr llvm::StringLiteral kThreads = "threads";
constexpr llvm::StringLiteral kAsyncCopies = "async_copies";
constexpr llvm::StringLiteral kKind = "kind";
constexpr llvm::StringLiteral kSize = "size";
constexpr llvm::StringLiteral kEps = "eps";

/// The Node field that holds an attribute.
enum class Field { Dim, Size, Scalar, Map };

/// An attribute of an op: its key, its field and the least value of an
/// integer (of each entry of a map).
struct Attribute {
  llvm::StringLiteral key;
  Field field;
  int64_t minimum = 0;
};

/// The attributes of `kind` kept in its Node's fields. The forloop_accum's
/// kind and size and a graph_def's launch configuration are not among them.
llvm::ArrayRef<Attribute> getAttributes(OpKind kind) {
  static const Attribute mulScalar[] = {{"value", Field::Scalar}};
  static const Attribute reduction[] = {{"dim", Field::Dim},
                                        {"size", Field::Size, 1}};
  static const Attribute rmsNorm[] = {{"size", Field::Size, 1},
                                      {"eps", Field::Scalar}};
  static const Attribute dim[] = {{"dim", Field::Dim}};
  static const Attribute chunk[] = {{"dim", Field::Dim},
                                    {"parts", Field::Size, 1}};
  static const Attribute inputLoader[] = {{"imap", Field::Map, -1},
                                          {"fmap", Field::Dim, -1}};
  static const Attribute outputSaver[] = {{"omap", Field::Map, -1}};
  if (kind == toOpKind(mlir::mirage::ElementwiseKind::MulScalar))
    return mulScalar;
  switch (kind) {
  case OpKind::Reduction:
    return reduction;
  case OpKind::RmsNorm:
    return rmsNorm;
  case OpKind::Concat:
  case OpKind::ReductionMax:
  case OpKind::ClusterGather:
  case OpKind::ClusterReduceScatter:
    return dim;
  case OpKind::Chunk:
    return chunk;
  case OpKind::InputLoader:
    return inputLoader;
  case OpKind::OutputSaver:
    return outputSaver;
  default:
    return {};
  }
}

json::Object writeGraph(const Program &program, const Graph &graph);

json::Object writeOp(const Program &program, const Node &node) {
  json::Object op{{kOp, getOpName(node.kind)},
                  {kOperands, json::Array(node.operands)},
                  {kResults, json::Array(node.results)}};
  for (const Attribute &attribute : getAttributes(node.kind)) {
    json::Value &value = op[attribute.key];
    switch (attribute.field) {
    case Field::Dim:
      value = node.dim;
      break;
    case Field::Size:
      value = node.size;
      break;
    case Field::Scalar:
      value = node.scalar;
      break;
    case Field::Map:
      value = json::Array(node.map);
      break;
    }
  }
  if (node.kind == OpKind::ForloopAccum) {
    op[kKind] = getAccumName(node.accum);
    if (node.accum == AccumKind::SumLastTo)
      op[kSize] = node.size;
    if (node.scalar != 0.0)
      op[kEps] = node.scalar;
  }
  if (node.kind == OpKind::GraphDef) {
    const Graph &body = program.graphs[node.body];
    op[kGrid] = json::Array(body.grid);
    op[kCluster] = json::Array(body.cluster);
    op[kForloop] = body.forloop;
    if (body.threads != 0)
      op[kThreads] = body.threads;
    if (body.asyncCopies)
      op[kAsyncCopies] = true;
  }
  if (node.body >= 0)
    op[kBody] = writeGraph(program, program.graphs[node.body]);
  return op;
}

json::Object writeGraph(const Program &program, const Graph &graph) {
  json::Array values, ops;
  for (const ValueType &type : graph.values)
    values.push_back(toJSON(type));
  for (const Node &node : graph.nodes)
    ops.push_back(writeOp(program, node));
  return json::Object{{kValues, std::move(values)},
                      {kInputs, json::Array(graph.inputs)},
                      {kOutputs, json::Array(graph.outputs)},
                      {kOps, std::move(ops)}};
}

/// The levels of a program's graphs, which hold different ops.
enum class Level { Kernel, Block, Thread };

bool isAllowed(OpKind kind, Level level) {
  if (isUnary(kind) || isBinary(kind))
    return true;
  switch (kind) {
  case OpKind::Matmul:
  case OpKind::Reduction:
  case OpKind::ReductionMax:
  case OpKind::RmsNorm:
  case OpKind::Concat:
    return level != Level::Thread;
  case OpKind::Chunk:
  case OpKind::GraphDef:
    return level == Level::Kernel;
  default:
    return level == Level::Block;
  }
}

/// Reads the graphs of a program, each body after the graph that holds it,
/// checking them as it goes.
class ProgramReader {
public:
  explicit ProgramReader(Program &program) : program(program) {}

  /// Reads the graph at `json`, of `level`, as the next graph of the
  /// program; returns its index, or -1 after a report.
  int32_t readGraph(const json::Value &json, Level level, json::Path path);

private:
  /// The state of the graph being read.
  struct Scope {
    Graph &graph;
    Level level;
    std::vector<bool> defined;
    /// Values that output_savers define, which only the outputs may use.
    std::vector<bool> saved;
  };

  bool readOp(const json::Value &json, Scope &scope, json::Path path);
  bool readAttributes(const json::Value &json, const Graph &graph, Node &node,
                      json::Path path);
  bool readBody(const json::Value &json, Scope &scope, Node &node,
                json::Path path);

  Program &program;
};

/// Reads a list of value ids of `graph` into `ids`.
template <typename Ids>
bool readIds(const json::Value &json, llvm::StringLiteral key,
             const Graph &graph, Ids &ids, json::Path path) {
  std::vector<int64_t> raw;
  if (!json::ObjectMapper(json, path).map(key, raw))
    return false;
  for (auto [i, id] : llvm::enumerate(raw)) {
    if (id < 0 || static_cast<size_t>(id) >= graph.values.size()) {
      path.field(key).index(i).report("not a value of the graph");
      return false;
    }
    ids.push_back(static_cast<int32_t>(id));
  }
  return true;
}

/// Reads an array of three integers of at least `minimum`.
template <typename T>
bool readTriple(const json::Value &json, llvm::StringLiteral key,
                int64_t minimum, std::array<T, 3> &out, json::Path path) {
  std::vector<int64_t> raw;
  if (!json::ObjectMapper(json, path).map(key, raw))
    return false;
  if (raw.size() != 3) {
    path.field(key).report("expected 3 integers");
    return false;
  }
  for (auto [i, entry] : llvm::enumerate(raw)) {
    if (entry < minimum || entry > std::numeric_limits<T>::max()) {
      path.field(key).index(i).report("out of range");
      return false;
    }
    out[i] = static_cast<T>(entry);
  }
  return true;
}

int32_t ProgramReader::readGraph(const json::Value &json, Level level,
                                 json::Path path) {
  int32_t index = program.graphs.size();
  program.graphs.emplace_back();
  Graph graph;
  const json::Object *object = json.getAsObject();
  if (!object) {
    path.report("expected an object");
    return -1;
  }
  if (!json::ObjectMapper(json, path).map(kValues, graph.values))
    return -1;
  for (auto [i, type] : llvm::enumerate(graph.values)) {
    bool scalar = type.shape.empty();
    if (scalar ? level == Level::Block : level == Level::Thread) {
      path.field(kValues).index(i).field(kShape).report(
          scalar ? llvm::StringLiteral("a scalar in a block graph")
                 : llvm::StringLiteral("not a scalar in a thread_graph body"));
      return -1;
    }
  }
  Scope scope{graph, level, std::vector<bool>(graph.values.size()),
              std::vector<bool>(graph.values.size())};
  if (!readIds(json, kInputs, graph, graph.inputs, path))
    return -1;
  for (auto [i, input] : llvm::enumerate(graph.inputs)) {
    if (scope.defined[input]) {
      path.field(kInputs).index(i).report("listed twice");
      return -1;
    }
    scope.defined[input] = true;
  }
  const json::Array *ops = object->getArray(kOps);
  if (!ops) {
    path.field(kOps).report("expected an array");
    return -1;
  }
  for (auto [i, op] : llvm::enumerate(*ops))
    if (!readOp(op, scope, path.field(kOps).index(i)))
      return -1;
  if (!readIds(json, kOutputs, graph, graph.outputs, path))
    return -1;
  if (graph.outputs.empty()) {
    path.field(kOutputs).report("a graph has an output");
    return -1;
  }
  for (auto [i, output] : llvm::enumerate(graph.outputs)) {
    if (!scope.defined[output]) {
      path.field(kOutputs).index(i).report("never defined");
      return -1;
    }
    if (level == Level::Block && !scope.saved[output]) {
      path.field(kOutputs).index(i).report("not the result of an output_saver");
      return -1;
    }
  }
  program.graphs[index] = std::move(graph);
  return index;
}

bool ProgramReader::readOp(const json::Value &json, Scope &scope,
                           json::Path path) {
  if (!json.getAsObject()) {
    path.report("expected an object");
    return false;
  }
  Graph &graph = scope.graph;
  std::string name;
  if (!json::ObjectMapper(json, path).map(kOp, name))
    return false;
  std::optional<OpKind> kind = getOpKind(name);
  if (!kind) {
    path.field(kOp).report("unknown op");
    return false;
  }
  if (!isAllowed(*kind, scope.level)) {
    path.field(kOp).report("not an op of this level of graph");
    return false;
  }
  Node node;
  node.kind = *kind;
  if (!readIds(json, kOperands, graph, node.operands, path) ||
      !readIds(json, kResults, graph, node.results, path))
    return false;
  // Every op has operands: one, two, or (concat and the ops with bodies)
  // any positive number.
  size_t operands = node.operands.size();
  bool variadic = node.kind == OpKind::Concat ||
                  node.kind == OpKind::GraphDef ||
                  node.kind == OpKind::ThreadGraph;
  size_t expected = isBinary(node.kind) || node.kind == OpKind::Matmul ? 2 : 1;
  if (variadic ? operands == 0 : operands != expected) {
    path.field(kOperands).report("wrong number of operands");
    return false;
  }
  for (auto [i, operand] : llvm::enumerate(node.operands)) {
    bool isInput = llvm::is_contained(graph.inputs, operand);
    std::optional<llvm::StringLiteral> fault;
    if (!scope.defined[operand])
      fault = llvm::StringLiteral("used before it is defined");
    else if (scope.saved[operand])
      fault = llvm::StringLiteral(
          "the result of an output_saver, which only the outputs use");
    else if (scope.level == Level::Block &&
             isInput != (node.kind == OpKind::InputLoader))
      fault = isInput ? llvm::StringLiteral(
                            "a kernel tensor, which only input_loader reads")
                      : llvm::StringLiteral(
                            "not a kernel tensor (an input of the graph)");
    if (fault) {
      path.field(kOperands).index(i).report(*fault);
      return false;
    }
  }
  for (auto [i, result] : llvm::enumerate(node.results)) {
    if (scope.defined[result]) {
      path.field(kResults).index(i).report("defined twice");
      return false;
    }
    scope.defined[result] = true;
    scope.saved[result] = node.kind == OpKind::OutputSaver;
  }
  if (!readAttributes(json, graph, node, path))
    return false;
  // One result, or one per chunk part, or (the ops with bodies) any
  // positive number.
  size_t results = node.results.size();
  bool counted = results == 1;
  if (node.kind == OpKind::Chunk)
    counted = static_cast<int64_t>(results) == node.size;
  else if (node.kind == OpKind::GraphDef || node.kind == OpKind::ThreadGraph)
    counted = results >= 1;
  if (!counted) {
    path.field(kResults).report("wrong number of results");
    return false;
  }
  // Dimensions and maps refer to dimensions of the first operand.
  int64_t rank = graph.values[node.operands.front()].shape.size();
  if (node.dim >= rank ||
      llvm::any_of(node.map, [&](int32_t dim) { return dim >= rank; })) {
    path.report("a dimension is out of range for the operand's rank");
    return false;
  }
  if ((node.kind == OpKind::GraphDef || node.kind == OpKind::ThreadGraph) &&
      !readBody(json, scope, node, path))
    return false;
  graph.nodes.push_back(std::move(node));
  return true;
}

bool ProgramReader::readAttributes(const json::Value &json, const Graph &graph,
                                   Node &node, json::Path path) {
  json::ObjectMapper mapper(json, path);
  for (const Attribute &attribute : getAttributes(node.kind)) {
    if (attribute.field == Field::Scalar) {
      if (!mapper.map(attribute.key, node.scalar))
        return false;
      continue;
    }
    if (attribute.field == Field::Map) {
      if (!readTriple(json, attribute.key, attribute.minimum, node.map, path))
        return false;
      continue;
    }
    int64_t &value = attribute.field == Field::Dim ? node.dim : node.size;
    if (!mapper.map(attribute.key, value))
      return false;
    if (value < attribute.minimum) {
      path.field(attribute.key).report("out of range");
      return false;
    }
  }
  if (node.kind != OpKind::ForloopAccum)
    return true;
  std::string kind;
  if (!mapper.map(kKind, kind))
    return false;
  std::optional<AccumKind> accum = getAccumKind(kind);
  if (!accum) {
    path.field(kKind).report("unknown accumulator");
    return false;
  }
  node.accum = *accum;
  if (json.getAsObject()->get(kEps)) {
    if (node.accum != AccumKind::RmsLast) {
      path.field(kEps).report("only rms_last has an eps");
      return false;
    }
    if (!mapper.map(kEps, node.scalar))
      return false;
    if (!(node.scalar >= 0.0)) {
      path.field(kEps).report("negative");
      return false;
    }
  }
  if (node.accum != AccumKind::SumLastTo) {
    if (json.getAsObject()->get(kSize)) {
      path.field(kSize).report("only sum_last_to has a size");
      return false;
    }
    return true;
  }
  if (!mapper.map(kSize, node.size))
    return false;
  int64_t last = graph.values[node.operands.front()].shape.back();
  if (node.size < 1 || last % node.size != 0) {
    path.field(kSize).report("does not divide the last dimension");
    return false;
  }
  return true;
}

bool ProgramReader::readBody(const json::Value &json, Scope &scope, Node &node,
                             json::Path path) {
  bool isGraphDef = node.kind == OpKind::GraphDef;
  std::array<int64_t, 3> grid, cluster;
  int64_t forloop = 1, threads = 0;
  bool asyncCopies = false;
  json::ObjectMapper mapper(json, path);
  if (isGraphDef && (!readTriple(json, kGrid, 1, grid, path) ||
                     !readTriple(json, kCluster, 1, cluster, path) ||
                     !mapper.map(kForloop, forloop) ||
                     !mapper.mapOptional(kThreads, threads) ||
                     !mapper.mapOptional(kAsyncCopies, asyncCopies)))
    return false;
  if (forloop < 1) {
    path.field(kForloop).report("out of range");
    return false;
  }
  if (threads < 0 || threads > mlir::mirage::kMaxThreadsPerBlock) {
    path.field(kThreads).report("out of range");
    return false;
  }
  if (isGraphDef &&
      (grid[0] % cluster[0] || grid[1] % cluster[1] || grid[2] % cluster[2])) {
    path.field(kCluster).report("does not divide the grid");
    return false;
  }
  const json::Value *body = json.getAsObject()->get(kBody);
  if (!body) {
    path.field(kBody).report("missing value");
    return false;
  }
  node.body = readGraph(*body, isGraphDef ? Level::Block : Level::Thread,
                        path.field(kBody));
  if (node.body < 0)
    return false;
  Graph &graph = program.graphs[node.body];
  if (isGraphDef) {
    graph.grid = grid;
    graph.cluster = cluster;
    graph.forloop = forloop;
    graph.threads = threads;
    graph.asyncCopies = asyncCopies;
  }
  // A thread_graph's body takes and gives the elements of its operands and
  // results.
  auto expected = [&](int32_t value) {
    ValueType type = scope.graph.values[value];
    if (!isGraphDef)
      type.shape.clear();
    return type;
  };
  auto inBody = [&](int32_t value) { return graph.values[value]; };
  auto types = [&](llvm::ArrayRef<int32_t> values) {
    return llvm::map_to_vector(values, expected);
  };
  auto bodyTypes = [&](llvm::ArrayRef<int32_t> values) {
    return llvm::map_to_vector(values, inBody);
  };
  if (bodyTypes(graph.inputs) != types(node.operands)) {
    path.field(kBody).field(kInputs).report("do not match the operands' types");
    return false;
  }
  if (bodyTypes(graph.outputs) != types(node.results)) {
    path.field(kBody).field(kOutputs).report("do not match the results' types");
    return false;
  }
  return true;
}

} // namespace

json::Object mlir::mirage::sem::toJSON(const ValueType &type) {
  return json::Object{{kShape, json::Array(type.shape)},
                      {kDType, getElementTypeName(type.elementType)}};
}

// Found by argument-dependent lookup from json::ObjectMapper, so in the
// namespace of the type it reads.
namespace mlir::mirage::sem {
bool fromJSON(const json::Value &json, ValueType &type, json::Path path) {
  json::ObjectMapper mapper(json, path);
  std::vector<int64_t> shape;
  std::string name;
  if (!mapper || !mapper.map(kShape, shape) || !mapper.map(kDType, name))
    return false;
  for (auto [i, extent] : llvm::enumerate(shape))
    if (extent < 1) {
      path.field(kShape).index(i).report("not a positive extent");
      return false;
    }
  type.shape.assign(shape.begin(), shape.end());
  for (ElementType candidate :
       {ElementType::F16, ElementType::BF16, ElementType::F32})
    if (name == getElementTypeName(candidate)) {
      type.elementType = candidate;
      return true;
    }
  path.field(kDType).report("unknown element type");
  return false;
}
} // namespace mlir::mirage::sem

json::Value mlir::mirage::sem::toJSON(const Program &program) {
  return writeGraph(program, program.getKernelGraph());
}

bool mlir::mirage::sem::fromJSON(const json::Value &json, Program &program,
                                 json::Path path) {
  program.graphs.clear();
  return ProgramReader(program).readGraph(json, Level::Kernel, path) == 0;
}

std::string mlir::mirage::sem::getProgramKey(const Program &program) {
  std::string text = llvm::formatv("{0}", toJSON(program)).str();
  return llvm::toHex(llvm::SHA256::hash(llvm::arrayRefFromStringRef(text)),
                     /*LowerCase=*/true);
}
