//===- AbstractExpr.cpp - Abstract expressions of Mirage values -----------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Mirage/Search/AbstractExpr.h"

#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/ErrorHandling.h"

#include <algorithm>

using namespace mlir::mirage;
using namespace mlir::mirage::search;
using sem::AccumKind;
using sem::Graph;
using sem::Node;
using sem::OpKind;

//===----------------------------------------------------------------------===//
// ExprPool
//===----------------------------------------------------------------------===//

ExprId ExprPool::intern(ExprNode node) {
  llvm::hash_code hash = llvm::hash_combine(
      static_cast<uint8_t>(node.kind), node.count,
      llvm::bit_cast<uint64_t>(node.constant),
      llvm::hash_combine_range(node.operands.begin(), node.operands.end()));
  llvm::SmallVector<ExprId, 1> &bucket = index[hash];
  for (ExprId id : bucket)
    if (nodes[id] == node)
      return id;
  nodes.push_back(std::move(node));
  bucket.push_back(static_cast<ExprId>(nodes.size() - 1));
  return bucket.back();
}

ExprId ExprPool::input(int64_t index) {
  return intern({ExprKind::Input, index, 0.0, {}});
}

ExprId ExprPool::constant(double value) {
  return intern({ExprKind::Constant, 0, value, {}});
}

ExprId ExprPool::add(ExprId a, ExprId b) {
  return intern({ExprKind::Add, 0, 0.0, {std::min(a, b), std::max(a, b)}});
}

ExprId ExprPool::mul(ExprId a, ExprId b) {
  return intern({ExprKind::Mul, 0, 0.0, {std::min(a, b), std::max(a, b)}});
}

ExprId ExprPool::div(ExprId a, ExprId b) {
  return intern({ExprKind::Div, 0, 0.0, {a, b}});
}

ExprId ExprPool::pow(ExprId a, ExprId b) {
  return intern({ExprKind::Pow, 0, 0.0, {a, b}});
}

ExprId ExprPool::apply(ExprKind kind, ExprId a) {
  return intern({kind, 0, 0.0, {a}});
}

ExprId ExprPool::sum(int64_t count, ExprId a) {
  if (count == 1)
    return a;
  const ExprNode &inner = nodes[a];
  if (inner.kind == ExprKind::Sum)
    return sum(count * inner.count, inner.operands[0]);
  return intern({ExprKind::Sum, count, 0.0, {a}});
}

ExprId ExprPool::max(int64_t count, ExprId a) {
  if (count == 1)
    return a;
  return intern({ExprKind::Max, count, 0.0, {a}});
}

ExprId ExprPool::concat(ExprId a, ExprId b) {
  return intern({ExprKind::Concat, 0, 0.0, {a, b}});
}

static const char *getName(ExprKind kind) {
  switch (kind) {
  case ExprKind::Input:
    return "in";
  case ExprKind::Constant:
    return "const";
  case ExprKind::Add:
    return "add";
  case ExprKind::Mul:
    return "mul";
  case ExprKind::Div:
    return "div";
  case ExprKind::Pow:
    return "pow";
  case ExprKind::Exp:
    return "exp";
  case ExprKind::Sqrt:
    return "sqrt";
  case ExprKind::Silu:
    return "silu";
  case ExprKind::Gelu:
    return "gelu";
  case ExprKind::Relu:
    return "relu";
  case ExprKind::Max:
    return "max";
  case ExprKind::Sum:
    return "sum";
  case ExprKind::Concat:
    return "concat";
  }
  llvm_unreachable("unknown expression kind");
}

void ExprPool::print(llvm::raw_ostream &os, ExprId id) const {
  const ExprNode &node = nodes[id];
  if (node.kind == ExprKind::Input) {
    os << "in" << node.count;
    return;
  }
  if (node.kind == ExprKind::Constant) {
    os << node.constant;
    return;
  }
  os << getName(node.kind) << '(';
  if (node.kind == ExprKind::Sum || node.kind == ExprKind::Max)
    os << node.count << ", ";
  llvm::interleaveComma(node.operands, os,
                        [&](ExprId operand) { print(os, operand); });
  os << ')';
}

std::string ExprPool::toString(ExprId id) const {
  std::string text;
  llvm::raw_string_ostream os(text);
  print(os, id);
  return text;
}

//===----------------------------------------------------------------------===//
// Expressions of a program
//===----------------------------------------------------------------------===//

namespace {

/// Walks a program and assigns an expression to every value.
class ExpressionBuilder {
public:
  ExpressionBuilder(const sem::Program &program, ExprPool &pool)
      : program(program), pool(pool), exprs(program.graphs.size()) {
    for (auto [g, graph] : llvm::enumerate(program.graphs))
      exprs[g].assign(graph.values.size(), -1);
  }

  std::vector<std::vector<ExprId>> run() {
    const Graph &kernel = program.getKernelGraph();
    for (auto [i, value] : llvm::enumerate(kernel.inputs))
      exprs[0][value] = pool.input(i);
    walk(0);
    return std::move(exprs);
  }

private:
  void walk(size_t g);
  /// Binds the inputs of body `g` to `operands` and walks it; returns the
  /// expressions of its outputs.
  llvm::SmallVector<ExprId> walkBody(int32_t g,
                                     llvm::ArrayRef<ExprId> operands);

  const sem::Program &program;
  ExprPool &pool;
  std::vector<std::vector<ExprId>> exprs;
};

void ExpressionBuilder::walk(size_t g) {
  const Graph &graph = program.graphs[g];
  for (const Node &node : graph.nodes) {
    llvm::SmallVector<ExprId, 2> operands;
    for (int32_t operand : node.operands)
      operands.push_back(exprs[g][operand]);
    llvm::SmallVector<ExprId> results;
    switch (node.kind) {
    case OpKind::GraphDef:
    case OpKind::ThreadGraph:
      results = walkBody(node.body, operands);
      break;
    case OpKind::Chunk:
      // Every part of a chunk is a piece of its operand.
      results.assign(node.results.size(), operands[0]);
      break;
    default:
      results.push_back(computeNodeExpression(pool, graph, node, operands));
      break;
    }
    for (auto [value, expr] : llvm::zip(node.results, results))
      exprs[g][value] = expr;
  }
}

llvm::SmallVector<ExprId>
ExpressionBuilder::walkBody(int32_t g, llvm::ArrayRef<ExprId> operands) {
  const Graph &body = program.graphs[g];
  for (auto [value, expr] : llvm::zip(body.inputs, operands))
    exprs[g][value] = expr;
  walk(g);
  llvm::SmallVector<ExprId> results;
  for (int32_t value : body.outputs)
    results.push_back(exprs[g][value]);
  return results;
}

} // namespace

namespace {
/// The expression of elementwise function `fn` on operands `x`; `scalar` is
/// mul_scalar's factor.
ExprId computeElementwise(ExprPool &pool, ElementwiseKind fn, double scalar,
                          llvm::ArrayRef<ExprId> x) {
  switch (fn) {
  case ElementwiseKind::Exp:
    return pool.apply(ExprKind::Exp, x[0]);
  case ElementwiseKind::Square:
    return pool.mul(x[0], x[0]);
  case ElementwiseKind::Sqrt:
    return pool.apply(ExprKind::Sqrt, x[0]);
  case ElementwiseKind::Rsqrt:
    return pool.div(pool.constant(1.0), pool.apply(ExprKind::Sqrt, x[0]));
  case ElementwiseKind::Silu:
    return pool.apply(ExprKind::Silu, x[0]);
  case ElementwiseKind::Gelu:
    return pool.apply(ExprKind::Gelu, x[0]);
  case ElementwiseKind::Relu:
    return pool.apply(ExprKind::Relu, x[0]);
  case ElementwiseKind::Neg:
    return pool.mul(x[0], pool.constant(-1.0));
  case ElementwiseKind::MulScalar:
    return pool.mul(x[0], pool.constant(scalar));
  case ElementwiseKind::Add:
    return pool.add(x[0], x[1]);
  case ElementwiseKind::Sub:
    return pool.add(x[0], pool.mul(x[1], pool.constant(-1.0)));
  case ElementwiseKind::Mul:
    return pool.mul(x[0], x[1]);
  case ElementwiseKind::Div:
    return pool.div(x[0], x[1]);
  case ElementwiseKind::Pow:
    return pool.pow(x[0], x[1]);
  }
  llvm_unreachable("unknown elementwise kind");
}

/// The expression of an elementwise or structural op on operands `x`.
ExprId compute(ExprPool &pool, const Node &node, const Graph &graph,
               llvm::ArrayRef<ExprId> x) {
  if (std::optional<ElementwiseKind> fn = sem::toElementwiseKind(node.kind))
    return computeElementwise(pool, *fn, node.scalar, x);
  auto shapeOf = [&](int32_t value) -> llvm::ArrayRef<int64_t> {
    return graph.values[value].shape;
  };
  switch (node.kind) {
  case OpKind::Matmul:
    return pool.sum(shapeOf(node.operands[0]).back(), pool.mul(x[0], x[1]));
  case OpKind::Reduction:
    return pool.sum(shapeOf(node.operands[0])[node.dim] / node.size, x[0]);
  case OpKind::ReductionMax:
    return pool.max(shapeOf(node.operands[0])[node.dim], x[0]);
  case OpKind::RmsNorm: {
    // x / sqrt(sum(n, x * x) / n + eps)
    ExprId mean = pool.mul(pool.sum(node.size, pool.mul(x[0], x[0])),
                           pool.constant(1.0 / double(node.size)));
    if (node.scalar != 0.0)
      mean = pool.add(mean, pool.constant(node.scalar));
    return pool.div(x[0], pool.apply(ExprKind::Sqrt, mean));
  }
  case OpKind::Concat:
    return pool.concat(x[0], x[1]);
  default:
    llvm_unreachable("not an op with an expression of its operands");
  }
}

/// The expression of a forloop_accum of `x`.
ExprId accumulate(ExprPool &pool, const Node &node, const Graph &body,
                  ExprId x) {
  int64_t iterations = body.forloop;
  int64_t last = body.values[node.operands[0]].shape.back();
  switch (node.accum) {
  case AccumKind::Sum:
    return pool.sum(iterations, x);
  case AccumKind::Max:
    return pool.max(iterations, x);
  case AccumKind::SumLast:
    return pool.sum(iterations * last, x);
  case AccumKind::SumLastTo:
    return pool.sum(iterations * last / node.size, x);
  case AccumKind::RmsLast: {
    int64_t count = iterations * last;
    ExprId mean = pool.mul(pool.sum(count, pool.mul(x, x)),
                           pool.constant(1.0 / double(count)));
    if (node.scalar != 0.0)
      mean = pool.add(mean, pool.constant(node.scalar));
    return pool.apply(ExprKind::Sqrt, mean);
  }
  }
  llvm_unreachable("unknown accumulator kind");
}

} // namespace

ExprId search::computeNodeExpression(ExprPool &pool, const sem::Graph &graph,
                                     const sem::Node &node,
                                     llvm::ArrayRef<ExprId> operands) {
  switch (node.kind) {
  case OpKind::InputLoader:
  case OpKind::OutputSaver:
  case OpKind::ClusterGather:
  case OpKind::Chunk:
    // Where elements live does not change what they compute.
    return operands[0];
  case OpKind::ClusterReduce:
  case OpKind::ClusterReduceScatter:
    // Each block keeps some positions of the sum: the same expression.
    return pool.sum(graph.getClusterSize(), operands[0]);
  case OpKind::ForloopAccum:
    return accumulate(pool, node, graph, operands[0]);
  default:
    return compute(pool, node, graph, operands);
  }
}

std::vector<std::vector<ExprId>>
search::computeExpressions(const sem::Program &program, ExprPool &pool) {
  return ExpressionBuilder(program, pool).run();
}

llvm::SmallVector<ExprId>
search::computeOutputExpressions(const sem::Program &program, ExprPool &pool) {
  std::vector<std::vector<ExprId>> exprs = computeExpressions(program, pool);
  llvm::SmallVector<ExprId> outputs;
  for (int32_t value : program.getKernelGraph().outputs)
    outputs.push_back(exprs[0][value]);
  return outputs;
}

namespace {
/// An expression and its degree in the sums of a split's chunk.
struct SplitTerm {
  ExprId expr;
  int degree;
};

/// `expr` widened as widenSplitSums does, with its degree (0 or 1), or
/// nothing when it is not linear in the chunk's sums.
std::optional<SplitTerm> widen(ExprPool &pool, ExprId expr, int64_t chunk,
                               int64_t splits) {
  // Copies: the pool grows below.
  ExprNode node = pool.get(expr);
  llvm::SmallVector<SplitTerm, 2> operands;
  for (ExprId operand : node.operands) {
    std::optional<SplitTerm> term = widen(pool, operand, chunk, splits);
    if (!term)
      return std::nullopt;
    operands.push_back(*term);
  }
  switch (node.kind) {
  case ExprKind::Input:
  case ExprKind::Constant:
    return SplitTerm{expr, 0};
  case ExprKind::Sum:
    if (node.count != chunk)
      return SplitTerm{pool.sum(node.count, operands[0].expr),
                       operands[0].degree};
    if (operands[0].degree != 0)
      return std::nullopt;
    return SplitTerm{pool.sum(chunk * splits, operands[0].expr), 1};
  case ExprKind::Add:
  case ExprKind::Concat:
    // Every term holds one sum of the chunk, or none does.
    if (operands[0].degree != operands[1].degree)
      return std::nullopt;
    return SplitTerm{node.kind == ExprKind::Add
                         ? pool.add(operands[0].expr, operands[1].expr)
                         : pool.concat(operands[0].expr, operands[1].expr),
                     operands[0].degree};
  case ExprKind::Mul:
    if (operands[0].degree + operands[1].degree > 1)
      return std::nullopt;
    return SplitTerm{pool.mul(operands[0].expr, operands[1].expr),
                     operands[0].degree + operands[1].degree};
  case ExprKind::Div:
    if (operands[1].degree != 0)
      return std::nullopt;
    return SplitTerm{pool.div(operands[0].expr, operands[1].expr),
                     operands[0].degree};
  default:
    // A function, a power or a max of a chunk's sum is no sum of the
    // blocks' results.
    if (llvm::any_of(operands,
                     [](const SplitTerm &term) { return term.degree != 0; }))
      return std::nullopt;
    return SplitTerm{expr, 0};
  }
}
} // namespace

std::optional<ExprId> search::widenSplitSums(ExprPool &pool, ExprId expr,
                                             int64_t chunk, int64_t splits) {
  std::optional<SplitTerm> term = widen(pool, expr, chunk, splits);
  if (!term || term->degree != 1)
    return std::nullopt;
  return term->expr;
}
