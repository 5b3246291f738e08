//===- Reachability.cpp - Whether the search can generate a µGraph --------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Search/Reachability.h"

#include "Enumerator.h"
#include "Mirage/Search/KernelPrefix.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <atomic>
#include <set>

using namespace mlir;
using namespace mlir::mirage;
using namespace mlir::mirage::search;
using sem::AccumKind;
using sem::Graph;
using sem::Node;
using sem::OpKind;

namespace {

/// Appends the nodes of `graph` to `into`, each thread_graph replaced by
/// the nodes of its body (values renumbered into `into`).
void inlineInto(const sem::Program &program, const Graph &graph, Graph &into,
                SmallVectorImpl<int32_t> &mapping) {
  for (const Node &node : graph.nodes) {
    if (node.kind != OpKind::ThreadGraph) {
      Node copy = node;
      for (int32_t &operand : copy.operands)
        operand = mapping[operand];
      for (int32_t &result : copy.results)
        result = mapping[result];
      into.nodes.push_back(std::move(copy));
      continue;
    }
    const Graph &body = program.graphs[node.body];
    SmallVector<int32_t> inner(body.values.size(), -1);
    for (auto [input, operand] : llvm::zip(body.inputs, node.operands))
      inner[input] = mapping[operand];
    for (auto [output, result] : llvm::zip(body.outputs, node.results))
      inner[output] = mapping[result];
    // The body's values are scalars; as tiles, each takes the shape its
    // operands broadcast to.
    for (const Node &scalar : body.nodes)
      for (int32_t result : scalar.results) {
        if (inner[result] >= 0)
          continue;
        sem::ValueType type = body.values[result];
        type.shape.clear();
        for (int32_t operand : scalar.operands) {
          ArrayRef<int64_t> shape = into.values[inner[operand]].shape;
          if (type.shape.empty())
            type.shape.assign(shape.begin(), shape.end());
          else if (type.shape.size() == shape.size())
            for (auto [extent, other] : llvm::zip(type.shape, shape))
              extent = std::max(extent, other);
        }
        inner[result] = static_cast<int32_t>(into.values.size());
        into.values.push_back(std::move(type));
      }
    inlineInto(program, body, into, inner);
  }
}

/// Rewrites, in graph_def bodies, a `forloop_accum sum` of a `reduction`
/// to size 1 of the last dimension, used by nothing else, into the
/// `forloop_accum sum_last` of the reduction's operand: the same sum, in
/// the form the search generates.
void foldSumLast(sem::Program &program) {
  for (Graph &body : llvm::drop_begin(program.graphs)) {
    SmallVector<int32_t> uses(body.values.size(), 0);
    for (const Node &node : body.nodes)
      for (int32_t operand : node.operands)
        ++uses[operand];
    std::vector<Node> nodes;
    for (const Node &node : body.nodes) {
      if (node.kind == OpKind::ForloopAccum && node.accum == AccumKind::Sum) {
        auto producer = llvm::find_if(nodes, [&](const Node &other) {
          return other.results.front() == node.operands.front();
        });
        if (producer != nodes.end() && producer->kind == OpKind::Reduction &&
            producer->size == 1 &&
            producer->dim + 1 ==
                int64_t(body.values[producer->operands.front()].shape.size()) &&
            uses[node.operands.front()] == 1) {
          Node folded = node;
          folded.accum = AccumKind::SumLast;
          folded.operands = {producer->operands.front()};
          nodes.erase(producer);
          nodes.push_back(std::move(folded));
          continue;
        }
      }
      nodes.push_back(node);
    }
    body.nodes = std::move(nodes);
  }
}

/// Drops each `forloop_accum sum` of a body without a for-loop (one
/// iteration): it is its operand, which the search saves as it is.
void dropIdentityAccumulators(sem::Program &program) {
  for (Graph &body : llvm::drop_begin(program.graphs)) {
    if (body.forloop != 1)
      continue;
    llvm::DenseMap<int32_t, int32_t> replaced;
    auto rename = [&](int32_t value) {
      auto it = replaced.find(value);
      return it == replaced.end() ? value : it->second;
    };
    std::vector<Node> nodes;
    for (Node node : body.nodes) {
      for (int32_t &operand : node.operands)
        operand = rename(operand);
      if (node.kind == OpKind::ForloopAccum && node.accum == AccumKind::Sum) {
        replaced[node.results[0]] = node.operands[0];
        continue;
      }
      nodes.push_back(std::move(node));
    }
    body.nodes = std::move(nodes);
    for (int32_t &output : body.outputs)
      output = rename(output);
  }
}

/// Unmaps the grid axes of one block: a map along an axis of size 1
/// splits nothing, and the search leaves such an axis unmapped.
void unmapUnitAxes(sem::Program &program) {
  for (Graph &body : llvm::drop_begin(program.graphs))
    for (unsigned axis = 0; axis < 3; ++axis)
      if (body.grid[axis] == 1)
        for (Node &node : body.nodes)
          node.map[axis] = -1;
}

/// Drops the operands of each graph_def that its body does not read, and
/// orders the rest as the kernel graph defines them: a graph_def's operand
/// list names what it reads, in an order that is a renaming.
void normalizeOperands(sem::Program &program) {
  Graph &kernel = program.graphs[0];
  llvm::DenseMap<int32_t, int64_t> rank;
  for (int32_t input : kernel.inputs)
    rank.try_emplace(input, rank.size());
  for (const Node &node : kernel.nodes)
    for (int32_t result : node.results)
      rank.try_emplace(result, rank.size());
  for (Node &node : kernel.nodes) {
    if (node.kind != OpKind::GraphDef)
      continue;
    Graph &body = program.graphs[node.body];
    SmallVector<std::pair<int32_t, int32_t>> reads;
    for (auto [operand, input] : llvm::zip(node.operands, body.inputs))
      if (llvm::any_of(body.nodes, [&, input = input](const Node &inner) {
            return llvm::is_contained(inner.operands, input);
          }))
        reads.push_back({operand, input});
    llvm::stable_sort(reads, [&](const auto &a, const auto &b) {
      return rank.lookup(a.first) < rank.lookup(b.first);
    });
    node.operands.clear();
    body.inputs.clear();
    for (auto [operand, input] : reads) {
      node.operands.push_back(operand);
      body.inputs.push_back(input);
    }
  }
}

/// The last op of `kernel` when it is a binary elementwise op of results
/// of graph_defs: a graph_def's final op hoisted to kernel level, as the
/// search also builds it (FinalOp in lib/Search/Worker.h); or null.
const Node *getHoistedOp(const Graph &kernel) {
  if (kernel.nodes.empty() || !sem::isBinary(kernel.nodes.back().kind))
    return nullptr;
  const Node &op = kernel.nodes.back();
  bool readsGraphDefs = llvm::all_of(op.operands, [&](int32_t operand) {
    return llvm::any_of(kernel.nodes, [&](const Node &node) {
      return node.kind == OpKind::GraphDef &&
             llvm::is_contained(node.results, operand);
    });
  });
  return readsGraphDefs ? &op : nullptr;
}

/// The ops of `kernel` that apply a unary elementwise op to one of its
/// inputs for a graph_def to read: the op a combining kernel applies to the
/// input it reads beside the parts, hoisted to kernel level, as the search
/// also builds it (Combiner::inputOp in lib/Search/Worker.h).
SmallVector<const Node *> getHoistedInputOps(const Graph &kernel) {
  SmallVector<const Node *> ops;
  for (const Node &node : kernel.nodes)
    if (sem::isUnary(node.kind) &&
        llvm::is_contained(kernel.inputs, node.operands[0]) &&
        llvm::all_of(kernel.nodes,
                     [&](const Node &reader) {
                       return reader.kind == OpKind::GraphDef ||
                              !llvm::is_contained(reader.operands,
                                                  node.results[0]);
                     }) &&
        !llvm::is_contained(kernel.outputs, node.results[0]))
      ops.push_back(&node);
  return ops;
}

/// The graph_defs of `kernel`.
SmallVector<const Node *> getGraphDefs(const Graph &kernel) {
  SmallVector<const Node *> defs;
  for (const Node &node : kernel.nodes)
    if (node.kind == OpKind::GraphDef)
      defs.push_back(&node);
  return defs;
}

/// The body of the combining kernel of a split µGraph in `program`, or
/// null: the second of exactly two graph_defs, reading the first's results
/// and perhaps an input of the program, or a hoisted input op's result
/// (and followed by nothing but a hoisted final op).
Graph *getCombiner(sem::Program &program) {
  const Graph &kernel = program.getKernelGraph();
  SmallVector<const Node *> defs = getGraphDefs(kernel);
  SmallVector<const Node *> inputOps = getHoistedInputOps(kernel);
  size_t others = kernel.nodes.size() - defs.size();
  if (defs.size() != 2 || inputOps.size() > 1 ||
      others > (getHoistedOp(kernel) ? 1 : 0) + inputOps.size())
    return nullptr;
  const Node &first = *defs[0], &second = *defs[1];
  auto isPart = [&](int32_t operand) {
    return llvm::is_contained(first.results, operand);
  };
  if (!llvm::any_of(second.operands, isPart) ||
      !llvm::all_of(second.operands, [&](int32_t operand) {
        return isPart(operand) || llvm::is_contained(kernel.inputs, operand) ||
               llvm::any_of(inputOps, [&](const Node *op) {
                 return op->results[0] == operand;
               });
      }))
    return nullptr;
  return &program.graphs[second.body];
}

/// What result `output` of body `body` holds: the shape of the saved tile,
/// then the op that computes it.
SmallVector<int64_t> getSavedSignature(const Graph &body, int32_t output) {
  const Node *saver = nullptr, *source = nullptr;
  for (const Node &node : body.nodes)
    if (node.results[0] == output)
      saver = &node;
  for (const Node &node : body.nodes)
    if (saver && node.results[0] == saver->operands[0])
      source = &node;
  SmallVector<int64_t> key(body.values[output].shape.begin(),
                           body.values[output].shape.end());
  if (source)
    key.append({int64_t(source->kind), int64_t(source->accum), source->size});
  return key;
}

/// Reorders the results of graph_def `def` (and its body's outputs) as
/// `order` lists their positions.
void reorderResults(sem::Program &program, Node &def, ArrayRef<size_t> order) {
  Graph &body = program.graphs[def.body];
  std::vector<int32_t> outputs;
  SmallVector<int32_t, 1> results;
  for (size_t index : order) {
    outputs.push_back(body.outputs[index]);
    results.push_back(def.results[index]);
  }
  body.outputs = std::move(outputs);
  def.results = std::move(results);
}

/// Orders the partial results of a split µGraph by what they hold
/// (getSavedSignature): the order in which a first kernel saves its parts
/// is a renaming.
void orderPartialResults(sem::Program &program) {
  Node &first = program.graphs[0].nodes[0];
  const Graph &producer = program.graphs[first.body];
  SmallVector<size_t> order =
      llvm::to_vector(llvm::seq<size_t>(0, producer.outputs.size()));
  llvm::stable_sort(order, [&](size_t a, size_t b) {
    return getSavedSignature(producer, producer.outputs[a]) <
           getSavedSignature(producer, producer.outputs[b]);
  });
  reorderResults(program, first, order);
}

/// Orders the results of the graph_def that a hoisted final op reads as
/// the op reads them, the operands of `add` and `mul` first ordered by
/// what they hold: the order in which a graph_def saves them, and in which
/// a commutative op reads them, is a renaming.
void orderHoistedResults(sem::Program &program) {
  Graph &kernel = program.graphs[0];
  if (!getHoistedOp(kernel))
    return;
  Node &op = kernel.nodes.back();
  auto def = llvm::find_if(kernel.nodes, [&](const Node &node) {
    return node.kind == OpKind::GraphDef &&
           llvm::all_of(op.operands, [&](int32_t operand) {
             return llvm::is_contained(node.results, operand);
           });
  });
  if (def == kernel.nodes.end())
    return;
  const Graph &body = program.graphs[def->body];
  auto position = [&](int32_t result) {
    return static_cast<size_t>(llvm::find(def->results, result) -
                               def->results.begin());
  };
  std::optional<ElementwiseKind> fn = sem::toElementwiseKind(op.kind);
  if (fn == ElementwiseKind::Add || fn == ElementwiseKind::Mul)
    llvm::stable_sort(op.operands, [&](int32_t a, int32_t b) {
      return getSavedSignature(body, body.outputs[position(a)]) <
             getSavedSignature(body, body.outputs[position(b)]);
    });
  SmallVector<size_t> order;
  for (int32_t operand : op.operands)
    if (!llvm::is_contained(order, position(operand)))
      order.push_back(position(operand));
  for (size_t index : llvm::seq<size_t>(0, def->results.size()))
    if (!llvm::is_contained(order, index))
      order.push_back(index);
  reorderResults(program, *def, order);
}

/// Reduces the combining kernel of a split µGraph to what it computes: the
/// search builds it from the first kernel's partial results and chooses its
/// launch from the output's shape and the chip, so its grid, for-loop,
/// threads, maps and tile shapes are a schedule, not a choice the search
/// makes. A last-dimension accumulator then is the reduction it sums to:
/// `sum_last` the reduction to size 1, `sum_last_to s` the reduction to
/// size s (strided, as the search's are), and `sum` over a for-loop that
/// walks rows in chunks of s the reduction to s.
void normalizeCombiner(sem::Program &program) {
  Graph *body = getCombiner(program);
  if (!body)
    return;
  orderPartialResults(program);
  normalizeOperands(program);
  // A for-loop that walks the parts' last dimension in chunks makes a `sum`
  // accumulator of a chunk the strided reduction of the row to the chunk's
  // extent (chunk i holds columns i*s to i*s+s-1, so the sum over i of
  // column j sums the row's columns j + k*s).
  bool chunksRows =
      body->forloop > 1 && llvm::all_of(body->nodes, [&](const Node &node) {
        return node.kind != OpKind::InputLoader || node.dim < 0 ||
               node.dim + 1 ==
                   int64_t(body->values[node.results[0]].shape.size());
      });
  for (Node &node : body->nodes) {
    if (chunksRows && node.kind == OpKind::ForloopAccum &&
        node.accum == AccumKind::Sum) {
      node.kind = OpKind::Reduction;
      node.dim =
          static_cast<int64_t>(body->values[node.operands[0]].shape.size()) - 1;
      node.size = body->values[node.operands[0]].shape.back();
    }
    node.map = {-1, -1, -1};
    if (node.kind == OpKind::InputLoader)
      node.dim = -1;
    if (node.kind == OpKind::ForloopAccum &&
        (node.accum == AccumKind::SumLast ||
         node.accum == AccumKind::SumLastTo)) {
      node.dim =
          static_cast<int64_t>(body->values[node.operands[0]].shape.size()) - 1;
      if (node.accum == AccumKind::SumLast)
        node.size = 1;
      node.kind = OpKind::Reduction;
      node.accum = AccumKind::Sum;
    }
  }
  llvm::DenseSet<int32_t> boundary(body->inputs.begin(), body->inputs.end());
  boundary.insert(body->outputs.begin(), body->outputs.end());
  for (auto [index, type] : llvm::enumerate(body->values))
    if (!boundary.contains(static_cast<int32_t>(index)))
      type.shape.clear();
  body->grid = {1, 1, 1};
  body->forloop = 1;
  body->threads = 0;
}

/// The output dimension grid axis `axis` of `body` maps: the omap of its
/// first output_saver, or -1.
int32_t getOutputDim(const Graph &body, unsigned axis) {
  for (const Node &node : body.nodes)
    if (node.kind == OpKind::OutputSaver)
      return node.map[axis];
  return -1;
}

/// A verdict of rule `rule`.
Reachability excluded(StringRef rule, const Twine &detail) {
  return {false, rule.str(), detail.str()};
}

/// The static rules of the search's space, in order; nothing when
/// `candidate` (thread graphs inlined) passes them all.
std::optional<Reachability> checkSpace(const sem::Program &reference,
                                       const sem::Program &candidate,
                                       const BlockSearchOptions &options) {
  const Graph &kernel = candidate.getKernelGraph();
  SmallVector<std::string> outside;
  const Node *hoisted = getHoistedOp(kernel);
  SmallVector<const Node *> inputOps = getHoistedInputOps(kernel);
  for (const Node &node : kernel.nodes)
    if (node.kind != OpKind::GraphDef && &node != hoisted &&
        !llvm::is_contained(inputOps, &node))
      outside.push_back(sem::getOpName(node.kind).str());
  if (!outside.empty())
    return excluded("kernel ops",
                    "kernel-level " + llvm::join(outside, ", ") +
                        " beside the graph_defs; the search builds "
                        "graph_defs, a final elementwise op after them, "
                        "and a unary op of an input that a combining "
                        "kernel reads");
  SmallVector<const Node *> defs = getGraphDefs(kernel);
  bool split = defs.size() == 2;
  if (defs.empty() || defs.size() > 2 || (split && !options.splitKernels) ||
      (!split && !options.singleKernels))
    return excluded(
        "kernel count",
        llvm::formatv("{0} graph_defs; the search builds {1}", defs.size(),
                      options.splitKernels ? "one, or a split pair" : "one"));
  std::vector<search::detail::OpChoice> vocabulary =
      search::detail::chooseVocabulary(reference.getKernelGraph());
  ArrayRef<int64_t> output = reference.getKernelGraph()
                                 .values[reference.getKernelGraph().outputs[0]]
                                 .shape;
  SmallVector<int64_t> clusterSizes =
      search::detail::getClusterSizes(*options.chip);
  for (auto [index, def] : llvm::enumerate(defs)) {
    const Graph &body = candidate.graphs[def->body];
    bool clustered = body.getClusterSize() > 1;
    if (clustered && (split || !options.clusters || body.cluster[1] != 1 ||
                      body.cluster[2] != 1 || body.cluster[0] != body.grid[0] ||
                      !llvm::is_contained(clusterSizes, body.cluster[0]))) {
      std::string space =
          !options.clusters ? std::string("clusters are off")
          : clusterSizes.empty()
              ? (options.chip->name + " has no clusters").str()
              : "the search's clusters are the whole of grid x, of " +
                    llvm::join(llvm::map_range(clusterSizes,
                                               [](int64_t size) {
                                                 return std::to_string(size);
                                               }),
                               ", ") +
                    " blocks, in one-kernel µGraphs";
      return excluded("clusters",
                      llvm::formatv("graph_def {0} has a cluster of {1} "
                                    "blocks; {2}",
                                    index, body.getClusterSize(), space));
    }
    if (!llvm::is_contained(options.forloopRanges, body.forloop))
      return excluded(
          "for-loop range",
          llvm::formatv("graph_def {0}'s range {1} is not among {2}", index,
                        body.forloop,
                        llvm::join(llvm::map_range(options.forloopRanges,
                                                   [](int64_t r) {
                                                     return std::to_string(r);
                                                   }),
                                   ", ")));
    // The grid of a one-kernel µGraph covers output dimensions with x and
    // y; a split's first kernel also splits a reduced dimension (checked by
    // the pinned search).
    if (!split) {
      if (body.grid[2] > 1 && !clustered)
        return excluded("grid", "a one-kernel µGraph with grid axis z; the "
                                "search's one-kernel launches use x and y "
                                "(and z beside a cluster)");
      for (unsigned axis = 0; axis < (clustered ? 3u : 2u); ++axis) {
        if (body.grid[axis] == 1)
          continue;
        int32_t dim = getOutputDim(body, axis);
        SmallVector<int64_t> sizes = dim < 0
                                         ? SmallVector<int64_t>()
                                         : getGridSizes(output[dim], options);
        if (!llvm::is_contained(sizes, body.grid[axis]))
          return excluded(
              "grid", llvm::formatv("grid axis {0} of {1} blocks over output "
                                    "dimension {2} is not among the sizes "
                                    "the search tries for it",
                                    "xyz"[axis], body.grid[axis], dim));
      }
    }
    // The combining kernel of a split is built, not enumerated.
    if (split && index == 1)
      continue;
    std::vector<search::detail::OpChoice> choices = vocabulary;
    if (clustered)
      llvm::append_range(choices, search::detail::chooseClusterVocabulary(
                                      reference.getKernelGraph()));
    unsigned ops = 0, accumulators = 0, rmsLast = 0;
    for (const Node &node : body.nodes) {
      if (node.kind == OpKind::InputLoader || node.kind == OpKind::OutputSaver)
        continue;
      bool known =
          llvm::any_of(choices, [&](const search::detail::OpChoice &c) {
            return c.kind == node.kind &&
                   (node.kind != OpKind::ForloopAccum ||
                    (c.accum == node.accum &&
                     (c.accum != AccumKind::SumLastTo || c.size == node.size)));
          });
      if (!known)
        return excluded(
            "vocabulary",
            llvm::formatv("graph_def {0} uses {1}{2}, which the reference's "
                          "ops do not suggest",
                          index, sem::getOpName(node.kind),
                          node.kind == OpKind::ForloopAccum
                              ? (" " + sem::getAccumName(node.accum)).str()
                              : std::string()));
      if (node.kind == OpKind::ForloopAccum) {
        ++accumulators;
        rmsLast += node.accum == AccumKind::RmsLast;
      } else
        ++ops;
    }
    if (ops > options.maxOps)
      return excluded("op budget",
                      llvm::formatv("graph_def {0} computes with {1} ops; the "
                                    "search adds at most {2}",
                                    index, ops, options.maxOps));
    if (!fitsAccumulatorBudget(accumulators, rmsLast, options.maxAccumulators))
      return excluded("accumulators",
                      llvm::formatv("graph_def {0} has {1} accumulators; the "
                                    "search adds at most {2}, and one "
                                    "rms_last besides",
                                    index, accumulators,
                                    options.maxAccumulators));
  }
  return std::nullopt;
}

} // namespace

sem::Program search::inlineThreadGraphs(const sem::Program &program) {
  sem::Program inlined;
  for (const Graph &graph : program.graphs) {
    Graph copy = graph;
    copy.nodes.clear();
    SmallVector<int32_t> identity =
        llvm::to_vector(llvm::seq<int32_t>(0, graph.values.size()));
    inlineInto(program, graph, copy, identity);
    inlined.graphs.push_back(std::move(copy));
  }
  return inlined;
}

FailureOr<Reachability>
search::checkReachable(const sem::Program &reference,
                       const sem::Program &candidate,
                       const BlockSearchOptions &options, std::string &error) {
  if (failed(checkSearchable(reference, error)))
    return failure();
  // The search leaves the threads per block to the materializer, and emits
  // each candidate with both copy modes.
  sem::Program flat = inlineThreadGraphs(candidate);
  for (Graph &graph : flat.graphs) {
    graph.threads = 0;
    graph.asyncCopies = false;
  }
  foldSumLast(flat);
  unmapUnitAxes(flat);
  dropIdentityAccumulators(flat);
  normalizeOperands(flat);
  // A leading op of the reference at kernel level: the rest is searched as
  // a reference of its own.
  PrefixCut cut;
  if (std::optional<sem::Program> rest = splitAfter(reference, flat, cut)) {
    if (!options.kernelPrefixes)
      return excluded("kernel ops",
                      "a leading op at kernel level; kernel prefixes are off");
    std::string outside;
    if (failed(checkSearchable(cut.rest, outside)))
      return excluded("kernel ops", "the program after its leading op is not "
                                    "searched: " +
                                        outside);
    return checkReachable(cut.rest, *rest, options, error);
  }
  orderHoistedResults(flat);
  sem::Program compared = flat;
  normalizeCombiner(compared);
  if (std::optional<Reachability> verdict =
          checkSpace(reference, flat, options))
    return *verdict;

  // The search pinned to the candidate's for-loop range and grid sizes,
  // watching for its key.
  BlockSearchOptions pinned = options;
  std::set<int64_t> sizes;
  for (const Node *node : getGraphDefs(flat.getKernelGraph()))
    if (&flat.graphs[node->body] != getCombiner(flat))
      for (int64_t size : flat.graphs[node->body].grid)
        if (size > 1)
          sizes.insert(size);
  pinned.gridSizes.assign(sizes.begin(), sizes.end());
  pinned.largestGridSize = sizes.empty() ? 1 : *sizes.rbegin();
  const Node &first = flat.getKernelGraph().nodes.front();
  pinned.forloopRanges = {flat.graphs[first.body].forloop};
  pinned.maxCandidates = 1;
  pinned.progress = nullptr;
  pinned.checkpointPath.clear();
  std::string key = getCandidateKey(compared);
  std::atomic<bool> generated = false;
  pinned.observe = [&](const sem::Program &program) {
    if (generated)
      return;
    sem::Program normalized = program;
    dropIdentityAccumulators(normalized);
    normalizeOperands(normalized);
    orderHoistedResults(normalized);
    normalizeCombiner(normalized);
    if (getCandidateKey(normalized) == key)
      generated = true;
  };
  BlockSearchStatistics statistics;
  if (failed(searchBlockGraphs(reference, pinned, statistics, error)))
    return failure();
  if (generated)
    return Reachability{true, "", ""};
  return excluded(
      "search",
      llvm::formatv("not generated by the search pinned to its launch "
                    "({0} states, {1} pruned, {2} complete candidates{3})",
                    statistics.states, statistics.pruned, statistics.complete,
                    statistics.timedOut ? ", stopped by the time limit" : ""));
}
