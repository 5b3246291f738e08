//===- Interpreter.cpp - The reference interpreter ------------------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Semantics/Interpreter.h"

#include "Mirage/Dialect/Common/ShapeRules.h"
#include "Mirage/Semantics/LoopPhases.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <optional>
#include <tuple>

using namespace mlir;
using namespace mlir::mirage::sem;
using mlir::mirage::ElementwiseKind;

namespace {

/// Element operations between two polls of the deadline.
constexpr int64_t kPollInterval = int64_t(1) << 16;

/// Calls `fn(outIndex, aIndex, bIndex)` for every element of `shape`, where
/// `aIndex`/`bIndex` are the linear indices of operands that broadcast to it,
/// until `fn` returns false.
template <typename Fn>
void forEachBroadcast(ArrayRef<int64_t> shape, ArrayRef<int64_t> aShape,
                      ArrayRef<int64_t> bShape, Fn fn) {
  size_t rank = shape.size();
  SmallVector<int64_t, 4> aStrides = getStrides(aShape),
                          bStrides = getStrides(bShape);
  for (size_t k = 0; k < rank; ++k) {
    if (aShape[k] != shape[k])
      aStrides[k] = 0;
    if (bShape[k] != shape[k])
      bStrides[k] = 0;
  }
  SmallVector<int64_t, 4> index(rank, 0);
  int64_t a = 0, b = 0, n = getNumElements(shape);
  for (int64_t o = 0; o < n; ++o) {
    if (!fn(o, a, b))
      return;
    for (int64_t k = static_cast<int64_t>(rank) - 1; k >= 0; --k) {
      a += aStrides[k];
      b += bStrides[k];
      if (++index[k] < shape[k])
        break;
      a -= aStrides[k] * shape[k];
      b -= bStrides[k] * shape[k];
      index[k] = 0;
    }
  }
}

/// Calls `fn(boxOffset, wholeOffset, length)` for every innermost row of a
/// box of shape `box` placed at `offsets` inside a tensor of shape `whole`.
template <typename Fn>
void forEachBoxRow(ArrayRef<int64_t> box, ArrayRef<int64_t> whole,
                   ArrayRef<int64_t> offsets, Fn fn) {
  size_t rank = box.size();
  SmallVector<int64_t, 4> strides = getStrides(whole);
  int64_t row = rank ? box.back() : 1;
  if (row == 0)
    return;
  int64_t rows = getNumElements(box) / row;
  SmallVector<int64_t, 4> index(rank, 0);
  for (int64_t r = 0; r < rows; ++r) {
    int64_t w = 0;
    for (size_t k = 0; k < rank; ++k)
      w += (offsets[k] + index[k]) * strides[k];
    fn(r * row, w, row);
    for (int64_t k = static_cast<int64_t>(rank) - 2; k >= 0; --k) {
      if (++index[k] < box[k])
        break;
      index[k] = 0;
    }
  }
}

/// The box of `shape` at `offsets` inside `whole`.
template <typename V>
Tensor<V> extractBox(const Tensor<V> &whole, ArrayRef<int64_t> offsets,
                     ArrayRef<int64_t> shape) {
  Tensor<V> box(shape);
  forEachBoxRow(shape, whole.shape, offsets,
                [&](int64_t b, int64_t w, int64_t n) {
                  std::copy_n(whole.data.begin() + w, n, box.data.begin() + b);
                });
  return box;
}

/// Writes `box` into `whole` at `offsets`.
template <typename V>
void insertBox(Tensor<V> &whole, const Tensor<V> &box,
               ArrayRef<int64_t> offsets) {
  forEachBoxRow(box.shape, whole.shape, offsets,
                [&](int64_t b, int64_t w, int64_t n) {
                  std::copy_n(box.data.begin() + b, n, whole.data.begin() + w);
                });
}

/// The elements of `shape` before dimension `dim`, its extent, and the
/// elements after it: a row-major tensor is `outer` blocks of `extent`
/// slices of `inner` consecutive elements.
std::tuple<int64_t, int64_t, int64_t> splitAround(ArrayRef<int64_t> shape,
                                                  int64_t dim) {
  int64_t outer = 1, inner = 1;
  for (int64_t k = 0; k < dim; ++k)
    outer *= shape[k];
  for (size_t k = dim + 1; k < shape.size(); ++k)
    inner *= shape[k];
  return {outer, shape[dim], inner};
}

/// Evaluates one program in domain D.
template <typename D> class Evaluator {
public:
  using V = typename D::Value;
  using T = Tensor<V>;

  Evaluator(D &d, const Program &program, const EvaluationLimits &limits,
            const Deadline &deadline, std::string &error)
      : d(d), program(program), limits(limits), deadline(deadline),
        error(error) {}

  /// Evaluates the kernel graph `g`. `values[v]` points at value `v`: the
  /// inputs are bound on entry; computed values are stored in `owned`.
  LogicalResult runKernelGraph(const Graph &g, std::vector<const T *> &values,
                               std::vector<T> &owned);

private:
  //===--- Tensor kernels shared by the kernel and block levels ----------===//
  T store(T t, ElementType type) {
    for (V &v : t.data)
      v = d.store(v, type);
    return t;
  }
  T unary(const Node &node, const T &in);
  T binary(ElementwiseKind kind, const T &a, const T &b,
           ArrayRef<int64_t> shape);
  T matmul(const T &a, const T &b, ArrayRef<int64_t> shape);
  T reduction(const T &in, int64_t dim, int64_t size);
  T reductionMax(const T &in, int64_t dim);
  T rmsNorm(const T &in, int64_t size, double eps);
  T concat(const T &a, const T &b, int64_t dim, ArrayRef<int64_t> shape);
  T sumAll(ArrayRef<const T *> parts);

  /// Evaluates a node whose semantics is the same at both levels (tensors or
  /// tiles) into `results`. `shape` overrides the result shape recorded in
  /// `g`: thread-graph bodies hold scalars but run on whole tiles.
  LogicalResult evalTensorNode(const Node &node, const Graph &g,
                               ArrayRef<const T *> operands,
                               std::vector<T> &results,
                               std::optional<ArrayRef<int64_t>> shape = {});

  //===--- graph_def ------------------------------------------------------===//
  LogicalResult runGraphDef(const Node &node, const Graph &body,
                            ArrayRef<const T *> inputs,
                            std::vector<T> &outputs);
  /// Runs one cluster of blocks (a single block without a cluster).
  LogicalResult runBlockGroup(const Graph &body, ArrayRef<const T *> inputs,
                              ArrayRef<std::array<int64_t, 3>> blocks,
                              const std::vector<LoopPhase> &phases,
                              std::vector<T> &outputs);
  LogicalResult runThreadGraph(const Node &node, const Graph &body,
                               ArrayRef<const T *> operands, const Graph &g,
                               std::vector<T> &results);

  LogicalResult fail(const Node &node, const Twine &message) {
    error = (getOpName(node.kind) + ": " + message).str();
    return failure();
  }
  LogicalResult checkDomain(const Node &node) {
    if (const char *message = d.getError())
      return fail(node, message);
    return success();
  }
  /// Counts `work` element operations and polls the deadline every
  /// kPollInterval of them: true once it has passed. The kernels then stop
  /// early, and their callers fail with timeUp().
  bool outOfTime(int64_t work) {
    sincePoll += work;
    if (sincePoll >= kPollInterval) {
      sincePoll = 0;
      stopped = stopped || deadline.hasPassed();
    }
    return stopped;
  }
  LogicalResult timeUp() {
    error = deadline.describe(limits);
    return failure();
  }

  D &d;
  const Program &program;
  const EvaluationLimits &limits;
  const Deadline &deadline;
  std::string &error;
  int64_t sincePoll = 0;
  bool stopped = false;
};

//===----------------------------------------------------------------------===//
// Tensor kernels
//===----------------------------------------------------------------------===//

template <typename D>
typename Evaluator<D>::T Evaluator<D>::unary(const Node &node, const T &in) {
  T out(in.shape);
  ElementwiseKind kind = *toElementwiseKind(node.kind);
  V scalar = kind == ElementwiseKind::MulScalar ? d.constant(node.scalar) : V();
  V one = d.constant(1.0);
  for (int64_t i = 0, e = in.size(); i < e && !outOfTime(1); ++i) {
    V x = in.data[i];
    V &y = out.data[i];
    switch (kind) {
    case ElementwiseKind::Exp:
      y = d.exp(x);
      break;
    case ElementwiseKind::Square:
      y = d.mul(x, x);
      break;
    case ElementwiseKind::Sqrt:
      y = d.sqrt(x);
      break;
    case ElementwiseKind::Rsqrt:
      y = d.divide(one, d.divisor(d.sqrt(x)));
      break;
    case ElementwiseKind::Silu:
      y = d.silu(x);
      break;
    case ElementwiseKind::Gelu:
      y = d.gelu(x);
      break;
    case ElementwiseKind::Relu:
      y = d.relu(x);
      break;
    case ElementwiseKind::Neg:
      y = d.neg(x);
      break;
    case ElementwiseKind::MulScalar:
      y = d.mul(x, scalar);
      break;
    default:
      llvm_unreachable("not a unary op");
    }
  }
  return out;
}

template <typename D>
typename Evaluator<D>::T Evaluator<D>::binary(ElementwiseKind kind, const T &a,
                                              const T &b,
                                              ArrayRef<int64_t> shape) {
  T out(shape);
  if (kind == ElementwiseKind::Div) {
    // One inverse per divisor element, not per result element.
    std::vector<typename D::Divisor> inverses;
    inverses.reserve(b.data.size());
    for (const V &v : b.data) {
      if (outOfTime(1))
        return out;
      inverses.push_back(d.divisor(v));
    }
    forEachBroadcast(shape, a.shape, b.shape,
                     [&](int64_t o, int64_t i, int64_t j) {
                       out.data[o] = d.divide(a.data[i], inverses[j]);
                       return !outOfTime(1);
                     });
    return out;
  }
  forEachBroadcast(shape, a.shape, b.shape,
                   [&](int64_t o, int64_t i, int64_t j) {
                     const V &x = a.data[i], &y = b.data[j];
                     switch (kind) {
                     case ElementwiseKind::Add:
                       out.data[o] = d.add(x, y);
                       break;
                     case ElementwiseKind::Sub:
                       out.data[o] = d.sub(x, y);
                       break;
                     case ElementwiseKind::Mul:
                       out.data[o] = d.mul(x, y);
                       break;
                     case ElementwiseKind::Pow:
                       out.data[o] = d.pow(x, y);
                       break;
                     default:
                       llvm_unreachable("not a binary op");
                     }
                     return !outOfTime(1);
                   });
  return out;
}

template <typename D>
typename Evaluator<D>::T Evaluator<D>::matmul(const T &a, const T &b,
                                              ArrayRef<int64_t> shape) {
  size_t rank = a.shape.size();
  int64_t m = a.shape[rank - 2], k = a.shape[rank - 1], n = b.shape[rank - 1];
  int64_t batches = getNumElements(ArrayRef<int64_t>(a.shape).drop_back(2));
  T out(shape);
  // Rows in chunks of about kPollInterval multiply-adds, so that the
  // deadline is polled inside long matmuls.
  int64_t rowWork = std::max<int64_t>(k * n, 1);
  int64_t chunk = std::max<int64_t>(kPollInterval / rowWork, 1);
  for (int64_t batch = 0; batch < batches; ++batch)
    for (int64_t row = 0; row < m; row += chunk) {
      int64_t rows = std::min(chunk, m - row);
      if (outOfTime(rows * rowWork))
        return out;
      d.matmul(a.data.data() + (batch * m + row) * k,
               b.data.data() + batch * k * n,
               out.data.data() + (batch * m + row) * n, rows, k, n);
    }
  return out;
}

template <typename D>
typename Evaluator<D>::T Evaluator<D>::reduction(const T &in, int64_t dim,
                                                 int64_t size) {
  // out[o, j, i] = sum_k in[o, j + k * size, i]: the strided rule.
  auto [outer, extent, inner] = splitAround(in.shape, dim);
  SmallVector<int64_t, 4> shape(in.shape);
  shape[dim] = size;
  T out(shape, d.constant(0.0));
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t r = 0; r < extent; ++r) {
      if (outOfTime(inner))
        return out;
      const V *src = in.data.data() + (o * extent + r) * inner;
      V *dst = out.data.data() + (o * size + r % size) * inner;
      for (int64_t i = 0; i < inner; ++i)
        dst[i] = d.add(dst[i], src[i]);
    }
  return out;
}

template <typename D>
typename Evaluator<D>::T Evaluator<D>::reductionMax(const T &in, int64_t dim) {
  // out[o, 0, i] = max_k in[o, k, i], folded in order of k (the field's max
  // is a keyed function: the order is part of its value).
  auto [outer, extent, inner] = splitAround(in.shape, dim);
  SmallVector<int64_t, 4> shape(in.shape);
  shape[dim] = 1;
  T out(shape);
  for (int64_t o = 0; o < outer; ++o) {
    V *dst = out.data.data() + o * inner;
    std::copy_n(in.data.data() + o * extent * inner, inner, dst);
    for (int64_t r = 1; r < extent; ++r) {
      if (outOfTime(inner))
        return out;
      const V *src = in.data.data() + (o * extent + r) * inner;
      for (int64_t i = 0; i < inner; ++i)
        dst[i] = d.max(dst[i], src[i]);
    }
  }
  return out;
}

template <typename D>
typename Evaluator<D>::T Evaluator<D>::rmsNorm(const T &in, int64_t size,
                                               double eps) {
  T out(in.shape);
  auto count = d.divisor(d.constant(static_cast<double>(size)));
  V epsilon = d.constant(eps);
  for (int64_t g = 0, e = in.size(); g < e && !outOfTime(2 * size); g += size) {
    V sum = d.constant(0.0);
    for (int64_t i = 0; i < size; ++i)
      sum = d.add(sum, d.mul(in.data[g + i], in.data[g + i]));
    V mean = d.divide(sum, count);
    if (eps != 0.0)
      mean = d.add(mean, epsilon);
    auto rms = d.divisor(d.sqrt(mean));
    for (int64_t i = 0; i < size; ++i)
      out.data[g + i] = d.divide(in.data[g + i], rms);
  }
  return out;
}

template <typename D>
typename Evaluator<D>::T Evaluator<D>::concat(const T &a, const T &b,
                                              int64_t dim,
                                              ArrayRef<int64_t> shape) {
  T out(shape);
  SmallVector<int64_t, 4> offsets(shape.size(), 0);
  insertBox(out, a, offsets);
  offsets[dim] = a.shape[dim];
  insertBox(out, b, offsets);
  return out;
}

template <typename D>
typename Evaluator<D>::T Evaluator<D>::sumAll(ArrayRef<const T *> parts) {
  T out = *parts.front();
  for (const T *part : parts.drop_front()) {
    if (outOfTime(out.size()))
      return out;
    for (int64_t i = 0, e = out.size(); i < e; ++i)
      out.data[i] = d.add(out.data[i], part->data[i]);
  }
  return out;
}

template <typename D>
LogicalResult Evaluator<D>::evalTensorNode(
    const Node &node, const Graph &g, ArrayRef<const T *> operands,
    std::vector<T> &results, std::optional<ArrayRef<int64_t>> shapeOverride) {
  ArrayRef<int64_t> shape = shapeOverride.value_or(
      ArrayRef<int64_t>(g.values[node.results[0]].shape));
  if (isUnary(node.kind)) {
    results.push_back(unary(node, *operands[0]));
  } else if (isBinary(node.kind)) {
    results.push_back(binary(*toElementwiseKind(node.kind), *operands[0],
                             *operands[1], shape));
  } else {
    switch (node.kind) {
    case OpKind::Matmul:
      results.push_back(matmul(*operands[0], *operands[1], shape));
      break;
    case OpKind::Reduction:
      results.push_back(reduction(*operands[0], node.dim, node.size));
      break;
    case OpKind::ReductionMax:
      results.push_back(reductionMax(*operands[0], node.dim));
      break;
    case OpKind::RmsNorm:
      results.push_back(rmsNorm(*operands[0], node.size, node.scalar));
      break;
    case OpKind::Concat:
      results.push_back(concat(*operands[0], *operands[1], node.dim, shape));
      break;
    case OpKind::Chunk: {
      SmallVector<int64_t, 4> offsets(shape.size(), 0);
      for (int64_t part = 0; part < node.size; ++part) {
        offsets[node.dim] = part * shape[node.dim];
        results.push_back(extractBox(*operands[0], offsets, shape));
      }
      break;
    }
    default:
      return fail(node, "not supported at this level");
    }
  }
  if (stopped)
    return timeUp();
  for (auto [value, result] : llvm::zip(node.results, results))
    result = store(std::move(result), g.values[value].elementType);
  return checkDomain(node);
}

//===----------------------------------------------------------------------===//
// Kernel graph
//===----------------------------------------------------------------------===//

template <typename D>
LogicalResult Evaluator<D>::runKernelGraph(const Graph &g,
                                           std::vector<const T *> &values,
                                           std::vector<T> &owned) {
  for (const Node &node : g.nodes) {
    SmallVector<const T *, 4> operands;
    for (int32_t operand : node.operands)
      operands.push_back(values[operand]);
    std::vector<T> results;
    if (node.kind == OpKind::GraphDef) {
      if (failed(
              runGraphDef(node, program.graphs[node.body], operands, results)))
        return failure();
    } else if (failed(evalTensorNode(node, g, operands, results))) {
      return failure();
    }
    for (auto [value, result] : llvm::zip(node.results, results)) {
      owned[value] = std::move(result);
      values[value] = &owned[value];
    }
  }
  return stopped ? timeUp() : success();
}

//===----------------------------------------------------------------------===//
// graph_def
//===----------------------------------------------------------------------===//

template <typename D>
LogicalResult Evaluator<D>::runGraphDef(const Node &node, const Graph &body,
                                        ArrayRef<const T *> inputs,
                                        std::vector<T> &outputs) {
  for (int32_t value : body.outputs)
    outputs.emplace_back(body.values[value].shape);
  std::vector<LoopPhase> phases = computeLoopPhases(body);
  // Blocks run cluster by cluster; inside a cluster, in rank order.
  const auto &grid = body.grid, &cluster = body.cluster;
  for (int64_t oz = 0; oz < grid[2]; oz += cluster[2])
    for (int64_t oy = 0; oy < grid[1]; oy += cluster[1])
      for (int64_t ox = 0; ox < grid[0]; ox += cluster[0]) {
        SmallVector<std::array<int64_t, 3>, 16> blocks;
        for (int64_t z = 0; z < cluster[2]; ++z)
          for (int64_t y = 0; y < cluster[1]; ++y)
            for (int64_t x = 0; x < cluster[0]; ++x)
              blocks.push_back({ox + x, oy + y, oz + z});
        if (outOfTime(1))
          return timeUp();
        if (failed(runBlockGroup(body, inputs, blocks, phases, outputs)))
          return failure();
      }
  return success();
}

template <typename D>
LogicalResult
Evaluator<D>::runBlockGroup(const Graph &body, ArrayRef<const T *> inputs,
                            ArrayRef<std::array<int64_t, 3>> blocks,
                            const std::vector<LoopPhase> &phases,
                            std::vector<T> &outputs) {
  size_t numBlocks = blocks.size();
  // env[b][value]: the values of block b.
  std::vector<std::vector<T>> env(numBlocks,
                                  std::vector<T>(body.values.size()));
  // Accumulator state per block and forloop_accum node.
  std::vector<std::vector<T>> accumulators(numBlocks,
                                           std::vector<T>(body.nodes.size()));
  // Kernel tensors are shared by all blocks and only read by loaders.
  std::vector<const T *> kernelTensors(body.values.size(), nullptr);
  for (auto [i, value] : llvm::enumerate(body.inputs))
    kernelTensors[value] = inputs[i];

  auto evalNode = [&](const Node &node, int64_t iteration) -> LogicalResult {
    switch (node.kind) {
    case OpKind::InputLoader: {
      const T &whole = *kernelTensors[node.operands[0]];
      ArrayRef<int64_t> tile = body.values[node.results[0]].shape;
      for (size_t b = 0; b < numBlocks; ++b) {
        SmallVector<int64_t, 4> offsets(tile.size(), 0);
        for (int axis = 0; axis < 3; ++axis) {
          int32_t dim = node.map[axis];
          if (dim < 0)
            continue;
          int64_t chunk = whole.shape[dim] / body.grid[axis];
          offsets[dim] += blocks[b][axis] * chunk;
        }
        if (node.dim >= 0)
          offsets[node.dim] += iteration * tile[node.dim];
        env[b][node.results[0]] = extractBox(whole, offsets, tile);
        if (outOfTime(env[b][node.results[0]].size()))
          return timeUp();
      }
      return success();
    }
    case OpKind::OutputSaver: {
      auto position = llvm::find(body.outputs, node.results[0]);
      T &whole = outputs[position - body.outputs.begin()];
      for (size_t b = 0; b < numBlocks; ++b) {
        const T &tile = env[b][node.operands[0]];
        SmallVector<int64_t, 4> offsets(tile.shape.size(), 0);
        for (int axis = 0; axis < 3; ++axis)
          if (node.map[axis] >= 0)
            offsets[node.map[axis]] +=
                blocks[b][axis] * tile.shape[node.map[axis]];
        // A program the IR verifier accepts never writes outside its result;
        // one built otherwise (a search candidate, a program cut to reduced
        // sizes) is refused rather than allowed to write past the tensor.
        for (auto [offset, extent, bound] :
             llvm::zip_equal(offsets, tile.shape, whole.shape))
          if (offset + extent > bound)
            return fail(node, llvm::formatv("block ({0}, {1}, {2}) writes "
                                            "outside its result",
                                            blocks[b][0], blocks[b][1],
                                            blocks[b][2]));
        insertBox(whole, tile, offsets);
        if (outOfTime(tile.size()))
          return timeUp();
      }
      return success();
    }
    case OpKind::ClusterReduce:
    case OpKind::ClusterReduceScatter:
    case OpKind::ClusterGather: {
      SmallVector<const T *, 16> parts;
      for (size_t b = 0; b < numBlocks; ++b)
        parts.push_back(&env[b][node.operands[0]]);
      const ValueType &type = body.values[node.results[0]];
      T result;
      if (node.kind == OpKind::ClusterGather) {
        result = T(type.shape);
        SmallVector<int64_t, 4> offsets(type.shape.size(), 0);
        for (const T *part : parts) {
          insertBox(result, *part, offsets);
          offsets[node.dim] += part->shape[node.dim];
        }
      } else {
        result = sumAll(parts);
      }
      if (outOfTime(result.size() * numBlocks))
        return timeUp();
      result = store(std::move(result), type.elementType);
      for (size_t b = 0; b < numBlocks; ++b) {
        if (node.kind != OpKind::ClusterReduceScatter) {
          env[b][node.results[0]] = result;
          continue;
        }
        // Blocks are in rank order: block b keeps chunk b of the sum.
        SmallVector<int64_t, 4> offsets(type.shape.size(), 0);
        offsets[node.dim] = static_cast<int64_t>(b) * type.shape[node.dim];
        env[b][node.results[0]] = extractBox(result, offsets, type.shape);
      }
      return checkDomain(node);
    }
    default:
      break;
    }
    for (size_t b = 0; b < numBlocks; ++b) {
      SmallVector<const T *, 4> operands;
      for (int32_t operand : node.operands)
        operands.push_back(&env[b][operand]);
      std::vector<T> results;
      LogicalResult status =
          node.kind == OpKind::ThreadGraph
              ? runThreadGraph(node, program.graphs[node.body], operands, body,
                               results)
              : evalTensorNode(node, body, operands, results);
      if (failed(status))
        return failure();
      for (auto [value, result] : llvm::zip(node.results, results))
        env[b][value] = std::move(result);
    }
    return success();
  };

  // One accumulation step of forloop_accum `node` for every block.
  auto accumulate = [&](const Node &node, size_t index, int64_t iteration) {
    for (size_t b = 0; b < numBlocks; ++b) {
      const T &x = env[b][node.operands[0]];
      int64_t last = x.shape.size() - 1;
      T step;
      switch (node.accum) {
      case AccumKind::Sum:
      case AccumKind::Max:
        step = x;
        break;
      case AccumKind::SumLast:
        step = reduction(x, last, 1);
        break;
      case AccumKind::SumLastTo:
        step = reduction(x, last, node.size);
        break;
      case AccumKind::RmsLast:
        step = reduction(binary(ElementwiseKind::Mul, x, x, x.shape), last, 1);
        break;
      }
      T &acc = accumulators[b][index];
      if (iteration == 0) {
        acc = std::move(step);
        continue;
      }
      if (outOfTime(acc.size()))
        return;
      for (int64_t i = 0, e = acc.size(); i < e; ++i)
        acc.data[i] = node.accum == AccumKind::Max
                          ? d.max(acc.data[i], step.data[i])
                          : d.add(acc.data[i], step.data[i]);
    }
  };

  // The result of forloop_accum `node` after the loop.
  auto finish = [&](const Node &node, size_t index) {
    const ValueType &type = body.values[node.results[0]];
    for (size_t b = 0; b < numBlocks; ++b) {
      T acc = std::move(accumulators[b][index]);
      if (node.accum == AccumKind::RmsLast) {
        const ValueType &inputType = body.values[node.operands[0]];
        double count = static_cast<double>(body.forloop) *
                       static_cast<double>(inputType.shape.back());
        auto divisor = d.divisor(d.constant(count));
        V epsilon = d.constant(node.scalar);
        for (V &v : acc.data) {
          V mean = d.divide(v, divisor);
          if (node.scalar != 0.0)
            mean = d.add(mean, epsilon);
          v = d.sqrt(mean);
        }
      }
      env[b][node.results[0]] = store(std::move(acc), type.elementType);
    }
  };

  // Running maxima (max accumulators an in-loop op reads) are the maximum
  // over all iterations in every iteration: a first pass over the loop runs
  // only what they accumulate and finishes them.
  std::vector<bool> running = getRunningMaxima(body, phases);
  bool hasRunning = llvm::is_contained(running, true);
  std::vector<bool> firstPass(body.nodes.size(), false);
  if (hasRunning) {
    std::vector<int32_t> producer(body.values.size(), -1);
    for (auto [index, node] : llvm::enumerate(body.nodes))
      for (int32_t result : node.results)
        producer[result] = static_cast<int32_t>(index);
    for (int64_t index = static_cast<int64_t>(body.nodes.size()) - 1;
         index >= 0; --index) {
      if (!running[index] && !firstPass[index])
        continue;
      firstPass[index] = true;
      for (int32_t operand : body.nodes[index].operands)
        if (producer[operand] >= 0)
          firstPass[producer[operand]] = true;
    }
  }
  auto runLoop = [&](bool onlyFirstPass) -> LogicalResult {
    for (int64_t iteration = 0; iteration < body.forloop; ++iteration) {
      for (auto [index, node] : llvm::enumerate(body.nodes)) {
        // Every step counts, so that the deadline stops empty loops too.
        if (outOfTime(1))
          return timeUp();
        if (onlyFirstPass && !firstPass[index])
          continue;
        if (node.kind == OpKind::ForloopAccum) {
          if (onlyFirstPass || !running[index])
            accumulate(node, index, iteration);
          continue;
        }
        LoopPhase phase = phases[index];
        bool runs = phase == LoopPhase::InLoop ||
                    (phase == LoopPhase::Invariant && iteration == 0);
        if (runs && failed(evalNode(node, iteration)))
          return failure();
      }
    }
    return success();
  };
  if (hasRunning) {
    if (failed(runLoop(/*onlyFirstPass=*/true)))
      return failure();
    for (auto [index, node] : llvm::enumerate(body.nodes))
      if (running[index])
        finish(node, index);
  }
  if (failed(runLoop(/*onlyFirstPass=*/false)))
    return failure();
  for (auto [index, node] : llvm::enumerate(body.nodes)) {
    if (node.kind == OpKind::ForloopAccum) {
      if (!running[index])
        finish(node, index);
    } else if (phases[index] == LoopPhase::PostLoop &&
               failed(evalNode(node, body.forloop)))
      return failure();
  }
  // An accumulator or a thread graph may have stopped early.
  return stopped ? timeUp() : success();
}

template <typename D>
LogicalResult Evaluator<D>::runThreadGraph(const Node &node, const Graph &body,
                                           ArrayRef<const T *> operands,
                                           const Graph &g,
                                           std::vector<T> &results) {
  // Every scalar of the body becomes a tile of the broadcast shape.
  ArrayRef<int64_t> shape = g.values[node.results.front()].shape;
  std::vector<T> env(body.values.size());
  T zeros(shape, d.constant(0.0));
  for (auto [i, value] : llvm::enumerate(body.inputs))
    env[value] = binary(ElementwiseKind::Add, *operands[i], zeros, shape);
  for (const Node &inner : body.nodes) {
    SmallVector<const T *, 2> innerOperands;
    for (int32_t operand : inner.operands)
      innerOperands.push_back(&env[operand]);
    std::vector<T> innerResults;
    if (failed(evalTensorNode(inner, body, innerOperands, innerResults, shape)))
      return failure();
    env[inner.results[0]] = std::move(innerResults[0]);
  }
  for (auto [i, value] : llvm::enumerate(body.outputs))
    results.push_back(store(env[value], g.values[node.results[i]].elementType));
  return success();
}

} // namespace

//===----------------------------------------------------------------------===//
// Interpreter
//===----------------------------------------------------------------------===//

template <typename Domain>
LogicalResult
Interpreter<Domain>::run(const Program &program, ArrayRef<Tensor<Value>> inputs,
                         std::vector<Tensor<Value>> &outputs,
                         std::string &error, const Deadline &deadline) {
  if (failed(checkEvaluationLimits(program, sizeof(Value), limits, error)))
    return failure();
  const Graph &g = program.getKernelGraph();
  if (inputs.size() != g.inputs.size()) {
    error = llvm::formatv("expected {0} inputs, got {1}", g.inputs.size(),
                          inputs.size());
    return failure();
  }
  std::vector<Tensor<Value>> owned(g.values.size());
  std::vector<const Tensor<Value> *> values(g.values.size(), nullptr);
  for (auto [i, value] : llvm::enumerate(g.inputs)) {
    const ValueType &type = g.values[value];
    if (ArrayRef<int64_t>(inputs[i].shape) != ArrayRef<int64_t>(type.shape) ||
        inputs[i].size() != type.getNumElements()) {
      error = llvm::formatv("input {0} has shape {1}, expected {2}", i,
                            mirage::formatShape(inputs[i].shape),
                            mirage::formatShape(type.shape));
      return failure();
    }
    values[value] = &inputs[i];
    if (!domain.roundsStorage())
      continue;
    owned[value] = inputs[i];
    for (Value &v : owned[value].data)
      v = domain.store(v, type.elementType);
    values[value] = &owned[value];
  }
  Evaluator<Domain> evaluator(domain, program, limits, deadline, error);
  if (failed(evaluator.runKernelGraph(g, values, owned)))
    return failure();
  outputs.clear();
  for (int32_t value : g.outputs)
    outputs.push_back(*values[value]);
  return success();
}

template class mlir::mirage::sem::Interpreter<FloatDomain>;
template class mlir::mirage::sem::Interpreter<FieldDomain>;
