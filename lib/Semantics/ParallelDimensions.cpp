//===- ParallelDimensions.cpp - Checking programs at reduced sizes --------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Semantics/ParallelDimensions.h"

#include "llvm/ADT/STLExtras.h"

#include <numeric>
#include <optional>

using namespace mlir::mirage;
using namespace mlir::mirage::sem;

//===----------------------------------------------------------------------===//
// Dimension classes
//===----------------------------------------------------------------------===//

namespace {

/// Union-find over the dimensions of a graph's values.
class DimensionUnion {
public:
  explicit DimensionUnion(const Graph &graph) : graph(graph) {
    for (const ValueType &type : graph.values) {
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

  /// Unites what `node` identifies.
  void uniteOperands(const Node &node) {
    int32_t result = node.results.front();
    if (isUnary(node.kind) || isBinary(node.kind) ||
        node.kind == OpKind::RmsNorm) {
      for (int32_t operand : node.operands)
        uniteElementwise(operand, result);
      return;
    }
    if (node.kind == OpKind::Matmul) {
      int32_t a = node.operands[0], b = node.operands[1];
      int64_t rank = graph.values[result].shape.size();
      for (int64_t d = 0; d + 2 < rank; ++d) {
        unite(a, d, result, d);
        unite(b, d, result, d);
      }
      unite(a, rank - 2, result, rank - 2);
      unite(b, rank - 1, result, rank - 1);
      unite(a, rank - 1, b, rank - 2);
      return;
    }
    if (node.kind == OpKind::Reduction || node.kind == OpKind::ReductionMax) {
      int64_t rank = graph.values[result].shape.size();
      for (int64_t d = 0; d < rank; ++d)
        if (d != node.dim)
          unite(node.operands[0], d, result, d);
    }
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

} // namespace

std::vector<llvm::SmallVector<int32_t, 4>>
sem::classifyDimensions(const Graph &kernel) {
  DimensionUnion classes(kernel);
  for (const Node &node : kernel.nodes)
    classes.uniteOperands(node);
  std::vector<llvm::SmallVector<int32_t, 4>> result(kernel.values.size());
  for (auto [value, type] : llvm::enumerate(kernel.values))
    for (size_t d = 0; d < type.shape.size(); ++d)
      result[value].push_back(classes.find(value, d));
  return result;
}

//===----------------------------------------------------------------------===//
// Placing one parallel dimension
//===----------------------------------------------------------------------===//

namespace {

constexpr int64_t kNone = -1;

/// Where one parallel dimension lies in the values of a program, and how each
/// graph_def takes it.
struct Placement {
  /// Per kernel value: the dimension, or kNone where the value does not
  /// vary along it.
  std::vector<int64_t> dims;
  struct Split {
    /// The graph_def's body (Program::graphs) and the grid axis that splits
    /// the dimension among its blocks (-1: none, each block takes it whole),
    /// `tile` indices per block.
    int32_t body;
    int axis;
    int64_t tile;
    /// Whether each block computes every index of its tile apart too: then
    /// its tiles may have any extent.
    bool withinBlocks;
    /// Per body value: the dimension (of the kernel-level tensors, and with
    /// `withinBlocks` of the tiles), or kNone.
    llvm::SmallVector<int64_t, 8> dims;
  };
  llvm::SmallVector<Split, 2> splits;
};

/// Places the dimension in one graph of a program, given where it lies in
/// the graph's inputs (kernel graph) or tiles (a body, whose loaders and
/// savers the caller places); fails unless every op computes each index of
/// it from the same index of its operands alone, by the same function for
/// every index. Every value that has the dimension has `extent` indices
/// of it.
class Placer {
public:
  Placer(const Program &program, const Graph &graph, int64_t extent)
      : program(program), graph(graph), extent(extent) {}

  /// Places the dimension in the kernel graph from its inputs' dims.
  std::optional<Placement> placeKernel(llvm::ArrayRef<int64_t> inputDims) {
    placement.dims.assign(graph.values.size(), kNone);
    for (auto [input, dim] : llvm::zip(graph.inputs, inputDims))
      if (!setDim(input, dim))
        return std::nullopt;
    for (const Node &node : graph.nodes)
      if (!placeNode(node))
        return std::nullopt;
    return std::move(placement);
  }

  /// Places the dimension in a body's ops other than loaders and savers,
  /// given `dims` of the loaders' tiles; completes `dims`.
  bool placeBody(llvm::SmallVectorImpl<int64_t> &dims) {
    placement.dims.assign(dims.begin(), dims.end());
    for (const Node &node : graph.nodes)
      if (node.kind != OpKind::InputLoader &&
          node.kind != OpKind::OutputSaver && !placeNode(node))
        return false;
    dims.assign(placement.dims.begin(), placement.dims.end());
    return true;
  }

private:
  llvm::ArrayRef<int64_t> shapeOf(int32_t value) const {
    return graph.values[value].shape;
  }
  int64_t rankOf(int32_t value) const { return shapeOf(value).size(); }

  /// Records that `value` has the dimension at `dim`, of the right extent.
  bool setDim(int32_t value, int64_t dim) {
    if (dim != kNone && (dim >= rankOf(value) || shapeOf(value)[dim] != extent))
      return false;
    placement.dims[value] = dim;
    return true;
  }

  bool placeNode(const Node &node) {
    // What depends on no value along the dimension does not vary along it.
    if (llvm::none_of(node.operands,
                      [&](int32_t v) { return placement.dims[v] != kNone; }))
      return true;
    int32_t result = node.results.front();
    int64_t dim = placement.dims[node.operands.front()];
    if (isUnary(node.kind))
      return setDim(result, dim);
    if (isBinary(node.kind) || node.kind == OpKind::ThreadGraph)
      return placeElementwise(node);
    switch (node.kind) {
    case OpKind::Matmul:
      return placeMatmul(node);
    case OpKind::Reduction:
    case OpKind::ReductionMax:
    case OpKind::Concat:
    case OpKind::ClusterGather:
    case OpKind::ClusterReduceScatter:
      return node.operands.size() == 1 && dim != node.dim &&
             setDim(result, dim);
    case OpKind::ClusterReduce:
      return setDim(result, dim);
    case OpKind::RmsNorm:
      return dim != rankOf(result) - 1 && setDim(result, dim);
    case OpKind::ForloopAccum:
      // `sum` and `max` fold iterations elementwise; the others reduce the
      // last dimension.
      return (node.accum == AccumKind::Sum || node.accum == AccumKind::Max ||
              dim != rankOf(result) - 1) &&
             setDim(result, dim);
    case OpKind::GraphDef:
      return placeGraphDef(node);
    default:
      return false;
    }
  }

  /// Broadcasting aligns the operands' last dimensions: an operand without
  /// the dimension must have extent 1 (or no dimension) where it lies.
  bool placeElementwise(const Node &node) {
    int32_t result = node.results.front();
    int64_t rank = rankOf(result), dim = kNone;
    for (int32_t operand : node.operands) {
      if (placement.dims[operand] == kNone)
        continue;
      int64_t at = placement.dims[operand] + rank - rankOf(operand);
      if (dim != kNone && dim != at)
        return false;
      dim = at;
    }
    for (int32_t operand : node.operands) {
      int64_t at = dim - (rank - rankOf(operand));
      if (placement.dims[operand] == kNone && at >= 0 &&
          shapeOf(operand)[at] != 1)
        return false;
    }
    return llvm::all_of(node.results,
                        [&](int32_t value) { return setDim(value, dim); });
  }

  /// A batch dimension of both operands (or one, the other broadcast), the
  /// rows of the left one or the columns of the right one; never the
  /// contracted dimension.
  bool placeMatmul(const Node &node) {
    int32_t a = node.operands[0], b = node.operands[1];
    int32_t result = node.results.front();
    int64_t rank = rankOf(result);
    if (rankOf(a) != rank || rankOf(b) != rank)
      return false;
    int64_t dimA = placement.dims[a], dimB = placement.dims[b];
    if (dimA == rank - 1 || dimB == rank - 2)
      return false;
    int64_t dim = dimA != kNone ? dimA : dimB;
    if (dimA != kNone && dimB != kNone && dimA != dimB)
      return false;
    if (dim < rank - 2)
      for (int32_t operand : {a, b})
        if (placement.dims[operand] == kNone && shapeOf(operand)[dim] != 1)
          return false;
    return setDim(result, dim);
  }

  /// The blocks take the dimension apart: one grid axis maps it in every
  /// loader of an operand that has it (and in no loader of one that has
  /// not) and in every saver, with no for-loop over it and no cluster across
  /// it. Each block then computes `tile` indices from the same indices, by
  /// the same function. When the block's ops also compute each index apart,
  /// by the same function for every index, the axis may be none (each
  /// block takes the dimension whole).
  bool placeGraphDef(const Node &node) {
    const Graph &body = program.graphs[node.body];
    if (llvm::any_of(placement.splits, [&](const Placement::Split &split) {
          return split.body == node.body;
        }))
      return false;
    llvm::SmallVector<int64_t, 8> inputDims(body.values.size(), kNone);
    for (auto [operand, input] : llvm::zip(node.operands, body.inputs))
      inputDims[input] = placement.dims[operand];
    for (int axis = -1; axis < 3; ++axis) {
      llvm::SmallVector<int64_t, 8> dims(inputDims.begin(), inputDims.end());
      if (!placeLoaders(body, axis, dims))
        continue;
      int64_t tile = axis < 0 ? extent : extent / body.grid[axis];
      llvm::SmallVector<int64_t, 8> tiles(dims.begin(), dims.end());
      bool withinBlocks = Placer(program, body, tile).placeBody(tiles) &&
                          placeSavers(body, axis, tiles, /*tracked=*/true);
      if (withinBlocks) {
        dims = std::move(tiles);
      } else {
        // Only the kernel-level tensors keep the dimension's extent.
        for (const Node &op : body.nodes)
          if (op.kind == OpKind::InputLoader)
            dims[op.results[0]] = kNone;
        if (axis < 0 || !placeSavers(body, axis, dims, /*tracked=*/false))
          continue;
      }
      for (auto [result, output] : llvm::zip(node.results, body.outputs))
        if (!setDim(result, dims[output]))
          return false;
      placement.splits.push_back(
          {node.body, axis, tile, withinBlocks, std::move(dims)});
      return true;
    }
    return false;
  }

  /// Whether `axis` alone maps `dim` of loader or saver `node`, whose tile
  /// has `tile` indices of it: the block's share.
  bool mapsOnly(const Graph &body, int axis, const Node &node, int64_t dim,
                int64_t tile) const {
    for (int other = 0; other < 3; ++other)
      if ((other == axis) != (node.map[other] == dim))
        return false;
    return tile * (axis < 0 ? 1 : body.grid[axis]) == extent;
  }

  /// Whether `axis` (-1: none) takes the dimension apart in `body`'s
  /// loaders, given where it lies in the body's inputs (`dims`); adds where
  /// it lies in their tiles.
  bool placeLoaders(const Graph &body, int axis,
                    llvm::SmallVectorImpl<int64_t> &dims) const {
    if (axis >= 0 && (body.cluster[axis] != 1 || extent % body.grid[axis] != 0))
      return false;
    for (const Node &node : body.nodes) {
      if (node.kind != OpKind::InputLoader)
        continue;
      int64_t dim = dims[node.operands[0]];
      if (dim == kNone) {
        if (axis >= 0 && node.map[axis] != -1)
          return false;
        continue;
      }
      if (node.dim == dim || !mapsOnly(body, axis, node, dim,
                                       body.values[node.results[0]].shape[dim]))
        return false;
      dims[node.results[0]] = dim;
    }
    return true;
  }

  /// Whether `axis` takes the dimension apart in `body`'s savers: it maps
  /// the dimension of each saved tensor, which its tiles have at the same
  /// place if they have it (`dims`); without an axis, where the tiles have
  /// it. When the tiles' dimensions are `tracked`, a saved tile must have
  /// it: one that does not (a tile of keys saved along the rows) keeps its
  /// extent when the tensor is cut, and would be written past the cut
  /// tensor. Adds where it lies in the saved tensors.
  bool placeSavers(const Graph &body, int axis,
                   llvm::SmallVectorImpl<int64_t> &dims, bool tracked) const {
    for (int32_t output : body.outputs) {
      auto saver = llvm::find_if(body.nodes, [&](const Node &node) {
        return node.kind == OpKind::OutputSaver && node.results[0] == output;
      });
      if (saver == body.nodes.end())
        return false;
      int64_t tileDim = dims[saver->operands[0]];
      int64_t dim = axis >= 0 ? saver->map[axis] : tileDim;
      if (dim < 0 || (tileDim != kNone && tileDim != dim) ||
          (tracked && tileDim == kNone) ||
          !mapsOnly(body, axis, *saver, dim,
                    body.values[saver->operands[0]].shape[dim]))
        return false;
      dims[output] = dim;
    }
    return true;
  }

  const Program &program;
  const Graph &graph;
  int64_t extent;
  Placement placement;
};

/// Cuts the dimension placed by `placement` down to `extent` indices.
void cutDown(Program &program, const Placement &placement, int64_t extent) {
  Graph &kernel = program.graphs.front();
  for (auto [value, dim] : llvm::enumerate(placement.dims))
    if (dim != kNone)
      kernel.values[value].shape[dim] = extent;
  for (const Placement::Split &split : placement.splits) {
    Graph &body = program.graphs[split.body];
    // A block that computes every index apart takes all `extent` of them;
    // else each takes its tile, as before.
    if (split.axis >= 0)
      body.grid[split.axis] = split.withinBlocks ? 1 : extent / split.tile;
    for (auto [value, dim] : llvm::enumerate(split.dims))
      if (dim != kNone)
        body.values[value].shape[dim] = extent;
  }
}

} // namespace

ReducedPair sem::reduceParallelDimensions(const Program &reference,
                                          const Program &candidate) {
  ReducedPair pair{reference, candidate, {}};
  const Graph &kernel = reference.getKernelGraph();
  if (kernel.outputs.empty() ||
      reference.getInputTypes() != candidate.getInputTypes() ||
      reference.getOutputTypes() != candidate.getOutputTypes())
    return pair;
  std::vector<llvm::SmallVector<int32_t, 4>> classes =
      classifyDimensions(kernel);
  int32_t output = kernel.outputs.front();
  for (auto [outputDim, label] : llvm::enumerate(classes[output])) {
    // Where the dimension lies in each input: at most once.
    llvm::SmallVector<int64_t, 4> inputDims;
    for (int32_t input : kernel.inputs) {
      int64_t found = kNone;
      for (auto [d, other] : llvm::enumerate(classes[input]))
        if (other == label)
          found = found == kNone ? static_cast<int64_t>(d) : -2;
      inputDims.push_back(found);
    }
    if (llvm::is_contained(inputDims, -2))
      continue;
    int64_t extent =
        pair.reference.getKernelGraph().values[output].shape[outputDim];
    std::optional<Placement> inReference =
        Placer(pair.reference, pair.reference.getKernelGraph(), extent)
            .placeKernel(inputDims);
    std::optional<Placement> inCandidate =
        Placer(pair.candidate, pair.candidate.getKernelGraph(), extent)
            .placeKernel(inputDims);
    if (!inReference || !inCandidate)
      continue;
    // Every output has it, at the same dimension in both programs.
    const Graph &candidateKernel = pair.candidate.getKernelGraph();
    if (!llvm::all_of(llvm::zip(kernel.outputs, candidateKernel.outputs),
                      [&](auto outputs) {
                        int64_t dim = inReference->dims[std::get<0>(outputs)];
                        return dim != kNone &&
                               dim == inCandidate->dims[std::get<1>(outputs)];
                      }))
      continue;
    // Blocks that compute their tile's indices apart take any number of
    // them; the others, whole tiles.
    int64_t reduced = 1;
    for (const Placement *placement : {&*inReference, &*inCandidate})
      for (const Placement::Split &split : placement->splits)
        if (!split.withinBlocks)
          reduced = std::lcm(reduced, split.tile);
    if (reduced >= extent)
      continue;
    cutDown(pair.reference, *inReference, reduced);
    cutDown(pair.candidate, *inCandidate, reduced);
    pair.reductions.push_back(
        {static_cast<int64_t>(outputDim), extent, reduced});
  }
  return pair;
}
